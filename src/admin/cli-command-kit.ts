// What every `herald admin` command is made of: its shape, and the option readers that turn its
// command-line values into an admin API request (400-style messages naming the option).
import type { ParseArgsOptionsConfig } from 'node:util';

export interface AdminRequest {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  path: string;
  body?: Record<string, unknown>;
}

export interface AdminResponse {
  status: number;
  body: string;
}

/** What a job may use besides the admin API: stdout, and (for a command that follows) Ctrl-C. */
export interface AdminJobIo {
  /** Writes to stdout as the job goes. */
  write(text: string): void;
  /** Aborted by SIGINT or SIGTERM, for a command with `follows`; never otherwise. */
  signal: AbortSignal;
  /** stdout is a terminal: print for people; otherwise JSON (operator.md). */
  terminal: boolean;
}

/**
 * A command made of several admin requests; returns what is printed as JSON on stdout (undefined:
 * nothing more, the job wrote its output itself).
 */
export type AdminJob = (send: (request: AdminRequest) => Promise<AdminResponse>, io: AdminJobIo) => Promise<unknown>;

export type Values = Record<string, string | boolean | undefined>;

export interface AdminCommand {
  resource: string;
  action: string;
  usage: string;
  options: ParseArgsOptionsConfig;
  toRequest(values: Values, positionals: string[]): AdminRequest | AdminJob;
  /** How a success is printed (default: the JSON body); `values` are the command's options. */
  print?: (body: unknown, values: Values) => string | Promise<string>;
  /** Runs until interrupted (a job watching for changes): Ctrl-C aborts its io.signal and exits 0. */
  follows?: boolean;
}

export function required(values: Values, name: string): string {
  const value = values[name];
  if (typeof value !== 'string' || value === '') throw new Error(`--${name} is required`);
  return value;
}

export function integer(value: string | boolean | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !/^\d+$/.test(value)) throw new Error(`--${name} must be a whole number`);
  return Number(value);
}

export function signedInteger(value: string | boolean | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !/^-?\d+$/.test(value)) throw new Error(`--${name} must be a whole number`);
  return Number(value);
}

export function boolean(value: string | boolean | undefined, name: string): boolean | undefined {
  if (value === undefined || typeof value === 'boolean') return value;
  if (value === 'true' || value === 'false') return value === 'true';
  throw new Error(`--${name} must be true or false`);
}

export function teamIdFrom(values: Values, positionals: string[]): number {
  const raw = positionals[0] ?? values.team;
  const id = integer(raw, 'team');
  if (id === undefined) throw new Error('a team id is required (--team ID or as the first argument)');
  return id;
}

/** Drops undefined entries so that PATCH bodies carry only what was given. */
export function defined(body: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined));
}

export const str = { type: 'string' } as const;
