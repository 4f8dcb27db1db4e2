// The statements over sign_in_requests: a sign-in by email (link and code) or an operator's link.
// Found by the link's keyed hash or by the address, as sessions are: no team owns a sign-in.
import { sql } from 'kysely';
import type { Db } from '../db/handle.ts';

/** A code is tried at most this many times (every wrong code counts against every live request). */
export const CODE_ATTEMPTS = 5;

export interface NewSignInRequest {
  id: string;
  email: string;
  tokenHash: Buffer;
  codeHash: Buffer | null;
  expiresAt: Date;
  /** The link and code, encrypted, for the sign-in-mail queue; null: nothing to mail. */
  mailSealed: string | null;
  at: Date;
}

export async function insertSignInRequest(db: Db, request: NewSignInRequest): Promise<void> {
  await db
    .insertInto('sign_in_requests')
    .values({
      id: request.id,
      email: request.email,
      token_hash: request.tokenHash,
      code_hash: request.codeHash,
      expires_at: request.expiresAt,
      created_at: request.at,
      mail_sealed: request.mailSealed,
      mail_due_at: request.at,
    })
    .execute();
}

/**
 * Uses the live sign-in whose link has this hash: marks it used (its code with it) and answers its
 * address; undefined when no live one has it.
 */
export async function useSignInLink(db: Db, tokenHash: Buffer, now: Date) {
  return db
    .updateTable('sign_in_requests')
    .set({ used_at: now, mail_sealed: null })
    .where('token_hash', '=', tokenHash)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .returning('email')
    .executeTakeFirst();
}

/** The address's live sign-ins that still take a code, newest first, locked for the caller's check. */
export async function lockLiveCodes(db: Db, email: string, now: Date) {
  return db
    .selectFrom('sign_in_requests')
    .select(['id', 'code_hash'])
    .where('email', '=', email)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .where('code_hash', 'is not', null)
    .where('code_attempts', '<', CODE_ATTEMPTS)
    .orderBy('created_at', 'desc')
    .forUpdate()
    .execute();
}

export async function markSignInUsed(db: Db, id: string, now: Date): Promise<void> {
  await db.updateTable('sign_in_requests').set({ used_at: now, mail_sealed: null }).where('id', '=', id).execute();
}

/** A wrong code: one attempt more on each of these sign-ins. */
export async function countWrongCode(db: Db, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  await db
    .updateTable('sign_in_requests')
    .set((eb) => ({ code_attempts: eb('code_attempts', '+', 1) }))
    .where('id', 'in', ids)
    .execute();
}

/** Sign-ins made before `before`: long expired, used or not. */
export async function purgeOldSignIns(db: Db, before: Date): Promise<number> {
  const result = await sql`DELETE FROM sign_in_requests WHERE created_at < ${before}`.execute(db);
  return Number(result.numAffectedRows ?? 0n);
}

// The sign-in-mail queue's fragments (sign-in-mail.ts): a request whose mail waits, what a claim
// answers, and the sealed link and code erased once mailed or given up.
export const SIGN_IN_MAIL_WAITING = sql`mail_sealed IS NOT NULL`;
export const SIGN_IN_MAIL_CLAIMED = sql`id, email, mail_sealed, expires_at, used_at`;
export const SIGN_IN_MAIL_SENT = sql`mail_sealed = NULL`;
export const SIGN_IN_MAIL_GIVEN_UP = sql`mail_sealed = NULL, mail_error = job_error`;
