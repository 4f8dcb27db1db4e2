// HERALD_SMTP_* limits of the inbound listener's connections (issue 23: a listener nobody can lock
// out). Parsed at start like every variable; src/mx/README.md says what each rule does.
import { ConfigError } from '../config-error.ts';

export interface SmtpConnectionConfig {
  /** HERALD_SMTP_MAX_CLIENTS: connections open at once; at the limit the idlest, whatever its state, is closed for a new one. */
  maxClients: number;
  /** HERALD_SMTP_MAX_CONNECTIONS_PER_ADDRESS / _PER_NETWORK (IPv4 /24, IPv6 /64): open at once. */
  maxConnectionsPerAddress: number;
  maxConnectionsPerNetwork: number;
  /** HERALD_SMTP_CONNECTIONS_PER_MINUTE_PER_ADDRESS / _PER_NETWORK: new connections in any minute. */
  connectionsPerMinutePerAddress: number;
  connectionsPerMinutePerNetwork: number;
  /** HERALD_SMTP_GREETING_TIMEOUT_SECONDS: the wait for a client's first command after the greeting. */
  greetingTimeoutMs: number;
  /** HERALD_SMTP_IDLE_TIMEOUT_SECONDS: the wait for each later command (RFC 5321 4.5.3.2.7: 5 minutes). */
  idleTimeoutMs: number;
  /**
   * HERALD_SMTP_TRANSACTION_IDLE_SECONDS: inside a mail transaction, the silence allowed since its
   * last progress (MAIL FROM, an accepted RCPT, DATA and each 4 KiB of it) before a 421 (issue 41).
   */
  transactionIdleMs: number;
}

type Env = Record<string, string | undefined>;

function wholeNumber(env: Env, name: string, fallback: number, min: number, max: number, accepts?: string): number {
  const raw = env[name]?.trim() ?? '';
  if (raw === '') return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new ConfigError(name, accepts ?? `a whole number from ${min} to ${max}`, raw);
  }
  return Number(raw);
}

/** A limit per network below the one per address would make the address's limit unreachable. */
function atLeast(env: Env, name: string, fallback: number, floorName: string, floor: number): number {
  const max = 1_000_000;
  const value = wholeNumber(env, name, Math.max(fallback, floor), 1, max);
  if (value < floor) {
    throw new ConfigError(name, `a whole number from ${floor} (${floorName}) to ${max}`, String(value));
  }
  return value;
}

export function smtpConnectionConfig(env: Env): SmtpConnectionConfig {
  const maxClients = wholeNumber(env, 'HERALD_SMTP_MAX_CLIENTS', 1000, 1, 100_000);
  const maxConnectionsPerAddress = wholeNumber(env, 'HERALD_SMTP_MAX_CONNECTIONS_PER_ADDRESS', 20, 1, 100_000);
  const connectionsPerMinutePerAddress = wholeNumber(
    env,
    'HERALD_SMTP_CONNECTIONS_PER_MINUTE_PER_ADDRESS',
    60,
    1,
    1_000_000,
  );
  const idleSeconds = wholeNumber(env, 'HERALD_SMTP_IDLE_TIMEOUT_SECONDS', 300, 1, 3600);
  const greetingSeconds = wholeNumber(
    env,
    'HERALD_SMTP_GREETING_TIMEOUT_SECONDS',
    Math.min(30, idleSeconds),
    1,
    idleSeconds,
    `a whole number of seconds from 1 to HERALD_SMTP_IDLE_TIMEOUT_SECONDS (${idleSeconds})`,
  );
  const transactionIdleSeconds = wholeNumber(
    env,
    'HERALD_SMTP_TRANSACTION_IDLE_SECONDS',
    Math.min(10, idleSeconds),
    1,
    idleSeconds,
    `a whole number of seconds from 1 to HERALD_SMTP_IDLE_TIMEOUT_SECONDS (${idleSeconds})`,
  );
  return {
    maxClients,
    maxConnectionsPerAddress,
    maxConnectionsPerNetwork: atLeast(
      env,
      'HERALD_SMTP_MAX_CONNECTIONS_PER_NETWORK',
      50,
      'HERALD_SMTP_MAX_CONNECTIONS_PER_ADDRESS',
      maxConnectionsPerAddress,
    ),
    connectionsPerMinutePerAddress,
    connectionsPerMinutePerNetwork: atLeast(
      env,
      'HERALD_SMTP_CONNECTIONS_PER_MINUTE_PER_NETWORK',
      300,
      'HERALD_SMTP_CONNECTIONS_PER_MINUTE_PER_ADDRESS',
      connectionsPerMinutePerAddress,
    ),
    greetingTimeoutMs: greetingSeconds * 1000,
    idleTimeoutMs: idleSeconds * 1000,
    transactionIdleMs: transactionIdleSeconds * 1000,
  };
}
