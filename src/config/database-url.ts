// DATABASE_URL: checked part by part, and never shown. A password need not be percent-encoded for
// PostgreSQL to accept it (a space), and then no masking can find where it ends: a refusal names the
// part that is wrong, not the value.
import { ConfigError } from '../config-error.ts';
import { text, type Env } from './parse.ts';

const ACCEPTS =
  'postgres://user:password@host:port/database (or postgresql://), with reserved characters in the user name and password percent-encoded';

/** A refused DATABASE_URL: which part is wrong, the value left out. */
export class DatabaseUrlError extends ConfigError {
  constructor(problem: string) {
    super('DATABASE_URL', ACCEPTS, '');
    this.message = `DATABASE_URL is not valid: ${problem} (the value is not shown: it may hold a password); DATABASE_URL accepts ${ACCEPTS}`;
  }
}

/** DATABASE_REPLICA_URL: checked as DATABASE_URL is, and only beside it (the embedded database has no replica). */
export function databaseReplicaUrl(env: Env, primary: string | null): string | null {
  const raw = text(env, 'DATABASE_REPLICA_URL');
  if (raw === null) return null;
  const problem =
    primary === null ? 'it needs DATABASE_URL (the embedded database has no replica)' : databaseUrlProblem(raw);
  if (problem !== null) {
    const error = new DatabaseUrlError(problem);
    error.message = error.message.replaceAll('DATABASE_URL is not valid', 'DATABASE_REPLICA_URL is not valid');
    throw error;
  }
  return raw;
}

export function databaseUrl(env: Env): string | null {
  const raw = text(env, 'DATABASE_URL');
  if (raw === null) return null;
  const problem = databaseUrlProblem(raw);
  if (problem !== null) throw new DatabaseUrlError(problem);
  return raw;
}

/** What is wrong with a DATABASE_URL, in words that quote none of it; null when it is usable. */
export function databaseUrlProblem(raw: string): string | null {
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(raw);
  if (scheme === null) return 'it does not start with a scheme and :// (postgres://)';
  if (!/^postgres(ql)?$/.test(scheme[1]!)) return 'its scheme is not postgres:// or postgresql://';
  const rest = raw.slice(scheme[0].length);
  // The authority ends at the first / ? or #; an @ after that means the user name or password holds
  // one of those characters unencoded, and the host would be read from the middle of the password.
  const authorityEnd = rest.search(/[/?#]/);
  const authority = authorityEnd === -1 ? rest : rest.slice(0, authorityEnd);
  if (authorityEnd !== -1 && rest.slice(authorityEnd).includes('@')) {
    return 'its user name or password holds a / ? # or @ that is not percent-encoded (%2F %3F %23 %40)';
  }
  const hostPort = authority.slice(authority.lastIndexOf('@') + 1);
  const port = /^(?:\[[^\]]*\]|[^:]*)(?::(.*))?$/.exec(hostPort)?.[1];
  if (port !== undefined && port !== '' && !(/^\d{1,5}$/.test(port) && Number(port) >= 1 && Number(port) <= 65535)) {
    return 'its port is not a number from 1 to 65535';
  }
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'its host is missing or not a valid host name or address';
  }
  try {
    decodeURIComponent(url.pathname);
  } catch {
    return 'its database name holds a % that is not followed by two hex digits';
  }
  return null;
}
