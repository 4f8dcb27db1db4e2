// Recognising database errors the same way on pg and PGlite (both carry PostgreSQL's SQLSTATE).

/** A unique violation (23505), optionally of one constraint (by name, from the error or its message). */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  const e = error as { code?: string; constraint?: string; message?: string };
  if (e?.code !== '23505') return false;
  return constraint === undefined || e.constraint === constraint || (e.message ?? '').includes(`"${constraint}"`);
}

/** PostgreSQL broke a deadlock by failing this statement (40P01); the other side went on. */
export function isDeadlock(error: unknown): boolean {
  return (error as { code?: string } | null)?.code === '40P01';
}

/** A lock not granted within the session's lock_timeout (55P03). */
export function isLockTimeout(error: unknown): boolean {
  return (error as { code?: string } | null)?.code === '55P03';
}

/** SQLSTATEs of a session that ended or could not start: the work may succeed on a new connection. */
const CONNECTION_SQLSTATES = new Set(['57P01', '57P02', '57P03', '53300']);
/** Socket errors on the way to the server. */
const SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
/** node-postgres and pg-pool raise these without a code. */
const CONNECTION_MESSAGES =
  /^(Connection terminated|Client has encountered a connection error and is not queryable|Client was closed and is not queryable|timeout exceeded when trying to connect|Connection terminated due to connection timeout)/;

/**
 * The database connection was lost or could not be made (a restart, a failover,
 * pg_terminate_backend, the server unreachable): nothing wrong with the work itself, which can be
 * tried again. Looks through `cause` chains, since callers wrap errors.
 */
export function isConnectionLost(error: unknown): boolean {
  for (let e = error, depth = 0; e !== null && typeof e === 'object' && depth < 5; depth++) {
    const { code, message, cause } = e as { code?: unknown; message?: unknown; cause?: unknown };
    if (typeof code === 'string') {
      if (code.startsWith('08') || CONNECTION_SQLSTATES.has(code) || SOCKET_CODES.has(code)) return true;
      // 55000 is also other states; this one is a database refusing connections (ALLOW_CONNECTIONS false).
      if (code === '55000' && typeof message === 'string' && message.includes('not currently accepting connections'))
        return true;
    }
    if (typeof message === 'string' && CONNECTION_MESSAGES.test(message)) return true;
    e = cause;
  }
  return false;
}
