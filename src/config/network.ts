// Where Herald listens and what it connects to: HOST, the ports, the API prefix, the public URL,
// DATABASE_URL and REDIS_URL. Whether the ports are free is checked at start (src/listen-ports.ts).
import { isIP } from 'node:net';
import { ConfigError } from '../config-error.ts';
import { httpUrl, port, text, type Env } from './parse.ts';

export { databaseReplicaUrl, databaseUrl } from './database-url.ts';

const HOSTNAME = /^(?=.{1,253}$)[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/i;

/** An IP address or a host name; `[::1]` is taken for `::1`, as operators write it in URLs. */
export function host(env: Env): string {
  const raw = text(env, 'HOST');
  if (raw === null) return '127.0.0.1';
  const unbracketed = /^\[(.+)\]$/.exec(raw)?.[1] ?? raw;
  if (isIP(unbracketed) === 0 && !HOSTNAME.test(unbracketed)) {
    throw new ConfigError('HOST', 'an IP address (0.0.0.0, ::, 127.0.0.1) or a host name of this machine', raw);
  }
  return unbracketed;
}

export interface Ports {
  port: number;
  mxPort: number;
  smtpPort: number;
  /** HERALD_METRICS_PORT: /metrics on its own listener (and not on PORT); null serves it on PORT. */
  metricsPort: number | null;
}

export function ports(env: Env): Ports {
  return {
    port: port(env, 'PORT', 3000),
    mxPort: port(env, 'HERALD_MX_PORT', 25),
    smtpPort: port(env, 'HERALD_SMTP_PORT', 2525, true),
    metricsPort: text(env, 'HERALD_METRICS_PORT') === null ? null : port(env, 'HERALD_METRICS_PORT', 0),
  };
}

/** HERALD_PUBLIC_URL, by default what this process listens on. */
export function publicUrl(env: Env, listenHost: string, listenPort: number): string {
  return httpUrl(
    env,
    'HERALD_PUBLIC_URL',
    `http://${listenHost.includes(':') ? `[${listenHost}]` : listenHost}:${listenPort}`,
  )!;
}

export function apiPrefix(env: Env): string {
  const raw = env.HERALD_API_PREFIX;
  if (raw === undefined) return '/api';
  const trimmed = raw.trim().replace(/\/+$/, '');
  if (trimmed === '') return '';
  if (!/^\/[A-Za-z0-9._~\-/]*$/.test(trimmed)) {
    throw new ConfigError('HERALD_API_PREFIX', 'a path starting with / (or empty for none)', raw);
  }
  return trimmed;
}

export function redisUrl(env: Env): string | null {
  const raw = text(env, 'REDIS_URL');
  if (raw === null) return null;
  if (!/^rediss?:\/\/[^\s]+$/.test(raw)) {
    throw new ConfigError('REDIS_URL', 'a redis:// or rediss:// URL', raw);
  }
  return raw;
}
