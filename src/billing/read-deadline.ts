// Contract, Limits: a billing read that takes longer than 10 seconds is cancelled and answers 422.
// PostgreSQL cancels it (statement_timeout, SET LOCAL in the read's own transaction); a timer
// answers for the embedded database, which runs one statement at a time and has no cancel.
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';
import { ApiError } from '../platform/errors.ts';

const tooSlow = (ms: number) =>
  new ApiError(422, 'UNPROCESSABLE_ENTITY', `The billing read took longer than ${ms / 1000} s and was cancelled`);

/** PostgreSQL's query_canceled: the statement timeout fired. */
function isStatementTimeout(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === '57014';
}

export async function withReadDeadline<T>(
  db: Kysely<Database>,
  timeoutMs: number,
  read: (tx: Transaction<Database>) => Promise<T>,
): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(tooSlow(timeoutMs)), timeoutMs + 50);
  });
  const work = db.transaction().execute(async (tx) => {
    await sql.raw(`SET LOCAL statement_timeout = ${Math.max(1, Math.floor(timeoutMs))}`).execute(tx);
    return read(tx);
  });
  // The read may finish after the deadline answered; its outcome is dropped then.
  work.catch(() => undefined);
  try {
    return await Promise.race([work, deadline]);
  } catch (error) {
    if (isStatementTimeout(error)) throw tooSlow(timeoutMs);
    throw error;
  } finally {
    clearTimeout(timer);
  }
}
