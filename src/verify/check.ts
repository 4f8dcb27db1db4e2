// POST /v1/verify/check, in this order (research §8): refused → refused; verified → already_used;
// past expiresAt → expired (stored); no attempts left → too_many_attempts; wrong → one attempt fewer
// (failed at zero); right → verified. Only a wrong guess costs an attempt.
// The common case takes one statement (guessCodes): the UPDATE locks a pending, unexpired code with
// attempts left and compares the digests blinded with a fresh nonce, so the comparison's time leaks
// nothing; right → `verified` with no attempt spent, wrong → one attempt fewer (`failed` at zero).
// In the API process, concurrent checks of different codes share that statement (checkBatching);
// parallel guesses at one code take their turns on the row lock, so no more guesses are compared
// than there were attempts. When no attempt can be taken, `judge` names the reason: from a plain
// read for a settled code (it never changes again), under the row lock for a pending one (storing
// `expired`).
import { createHash, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { Clock } from '../platform/clock.ts';
import { Coalescer } from '../platform/coalescer.ts';
import type { Secrets } from '../platform/crypto.ts';
import { notFound } from '../platform/errors.ts';
import { codeHash, codeMatches } from './codes.ts';
import {
  getVerificationForUpdate,
  getVerificationRow,
  guessCodes,
  updateAfterCheck,
  type Guess,
  type GuessOutcome,
  type VerificationRow,
} from './queries.ts';
import type { CheckReason } from './schemas.ts';

export interface CheckDeps {
  db: Kysely<Database>;
  clock: Clock;
  secrets: Secrets;
  /** The API process's shared guess statement (checkBatching); without it each check writes alone. */
  guesses?: Coalescer<Guess, GuessOutcome>;
}

/** Largest number of guesses in one statement. */
const GUESS_BATCH_MAX = 64;

export function checkBatching(db: Kysely<Database>): Coalescer<Guess, GuessOutcome> {
  return new Coalescer((guesses) => guessCodes(db, guesses), {
    maxBatch: GUESS_BATCH_MAX,
    // Two guesses at one code never share a statement: each must see the other's outcome.
    canJoin: (batch, guess) => batch.every((other) => other.id !== guess.id),
  });
}

export interface CheckOutcome {
  row: VerificationRow;
  /** Absent when the code was right. */
  reason?: CheckReason;
}

type Change = Pick<VerificationRow, 'status' | 'attempts_remaining' | 'reason' | 'verified_at'>;

/** The outcome of one check on a locked row, and the change to store (none when nothing changes). */
export function judge(
  row: VerificationRow,
  now: Date,
  matches: () => boolean,
): { reason?: CheckReason; change?: Change } {
  const keep = { status: row.status, attempts_remaining: row.attempts_remaining, verified_at: row.verified_at };
  if (row.status === 'refused') return { reason: 'refused' };
  if (row.status === 'verified') return { reason: 'already_used' };
  if (now.getTime() >= row.expires_at.getTime()) {
    if (row.status !== 'pending') return { reason: 'expired' };
    return { reason: 'expired', change: { ...keep, status: 'expired', reason: 'expired' } };
  }
  if (row.status !== 'pending' || row.attempts_remaining <= 0) return { reason: 'too_many_attempts' };
  if (!matches()) {
    const left = row.attempts_remaining - 1;
    return {
      reason: 'wrong_code',
      change: { ...keep, attempts_remaining: left, status: left === 0 ? 'failed' : 'pending', reason: 'wrong_code' },
    };
  }
  return { change: { ...keep, status: 'verified', reason: null, verified_at: now } };
}

export async function checkVerification(
  deps: CheckDeps,
  teamId: number,
  input: { id: string; code: string },
): Promise<CheckOutcome> {
  const now = deps.clock.now();
  const nonce = randomBytes(16);
  const blindedGuess = createHash('sha256')
    .update(codeHash(deps.secrets, input.id, input.code))
    .update(nonce)
    .digest();
  const guess: Guess = { teamId, id: input.id, blindedGuess, nonce, now };
  const guessed = deps.guesses ? await deps.guesses.submit(guess) : (await guessCodes(deps.db, [guess]))[0];
  if (guessed === undefined) return checkSettled(deps, teamId, input);
  return guessed.matched ? { row: guessed.row } : { row: guessed.row, reason: 'wrong_code' };
}

/**
 * A code no attempt could be taken from. A code that is no longer pending never changes again, so
 * `judge` names its reason from a plain read; a pending one (expired, not yet stored as such) is
 * judged under the lock.
 */
async function checkSettled(
  deps: CheckDeps,
  teamId: number,
  input: { id: string; code: string },
): Promise<CheckOutcome> {
  const row = await getVerificationRow(deps.db, teamId, input.id);
  if (row === undefined) throw notFound('Verification');
  if (row.status === 'pending') return checkLocked(deps, teamId, input);
  const { reason, change } = judge(row, deps.clock.now(), () => false);
  if (change !== undefined) throw new Error(`check: a ${row.status} code changed`);
  return { row, reason };
}

/** A pending code no attempt could be taken from: the row locked, the reason named by `judge`. */
async function checkLocked(
  deps: CheckDeps,
  teamId: number,
  input: { id: string; code: string },
): Promise<CheckOutcome> {
  return deps.db.transaction().execute(async (tx) => {
    const row = await getVerificationForUpdate(tx, teamId, input.id);
    if (row === undefined) throw notFound('Verification');
    const now = deps.clock.now();
    const { reason, change } = judge(row, now, () => codeMatches(deps.secrets, row.id, input.code, row.code_hash!));
    if (change === undefined) return { row, reason };
    await updateAfterCheck(tx, row.id, { ...change, updated_at: now });
    return { row: { ...row, ...change, updated_at: now }, reason };
  });
}
