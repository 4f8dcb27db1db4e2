// The shapes every variable is read with: trimmed text, a port, an http(s) URL, one of a list.
// Each throws ConfigError naming the variable and what it accepts.
import { ConfigError } from '../config-error.ts';

export type Env = Record<string, string | undefined>;

/** The variable's trimmed value; unset and blank read alike. */
export function text(env: Env, name: string): string | null {
  const value = env[name];
  return value === undefined || value.trim() === '' ? null : value.trim();
}

export function port(env: Env, name: string, fallback: number, allowZero = false): number {
  const raw = text(env, name);
  if (raw === null) return fallback;
  const n = Number(raw);
  const min = allowZero ? 0 : 1;
  if (!/^\d+$/.test(raw) || n < min || n > 65535) {
    throw new ConfigError(name, `a port number from ${min} to 65535`, raw);
  }
  return n;
}

export function httpUrl(env: Env, name: string, fallback: string | null): string | null {
  const raw = text(env, name);
  if (raw === null) return fallback;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(name, 'an absolute http:// or https:// URL', raw);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigError(name, 'an absolute http:// or https:// URL', raw);
  }
  return raw.replace(/\/+$/, '');
}

export function oneOf<T extends string>(env: Env, name: string, allowed: readonly T[], fallback: T): T {
  const raw = text(env, name);
  if (raw === null) return fallback;
  if (!(allowed as readonly string[]).includes(raw)) {
    throw new ConfigError(name, `one of ${allowed.join(', ')}`, raw);
  }
  return raw as T;
}

/** A whole number in [min, max]; `accepts` says what it counts. */
export function wholeNumber(
  env: Env,
  name: string,
  fallback: number,
  min: number,
  max: number,
  accepts: string,
): number {
  const raw = text(env, name);
  if (raw === null) return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) throw new ConfigError(name, accepts, raw);
  return Number(raw);
}
