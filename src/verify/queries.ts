// The SQL statements of one-time codes, team id first (the send's facts: send-facts-queries.ts). A
// code's message delivery is read through sms/index.ts.
import { randomInt } from 'node:crypto';
import { sql, type Selectable } from 'kysely';
import type { Db } from '../db/handle.ts';
import type { VerificationsTable } from '../db/schema.ts';
import { getSmsDelivery } from '../sms/index.ts';

export type VerificationRow = Selectable<VerificationsTable>;

/** A verification with the state of its SMS (null for email). */
export interface VerificationWithDelivery extends VerificationRow {
  sms_status: string | null;
  sms_provider_message_id: string | null;
  sms_reason_message: string | null;
}

/** Rows each team's monthly code count is spread over (0013_verify.sql). */
const CODE_COUNT_SHARDS = 8;

/** Where a code sent now is counted: its team and its UTC month (the writer picks the shard). */
function codeMonthOf(row: VerificationRow): { teamId: number; month: string } {
  return { teamId: row.team_id, month: `${row.created_at.toISOString().slice(0, 7)}-01` };
}

/**
 * Stores a verification. One with a code (not a refusal) also counts in its team's month
 * (verification_monthly_codes, the usage read's thisMonth.codes), in the same statement.
 */
export async function insertVerification(db: Db, row: VerificationRow): Promise<void> {
  await insertVerifications(db, [row]);
}

/** bytea as text in JSON (PostgreSQL's hex format). */
const byteaText = (bytes: Buffer | null) => (bytes === null ? null : `\\x${bytes.toString('hex')}`);

/** insertVerification for many rows in one statement (the send routes' shared batch). */
export async function insertVerifications(db: Db, rows: VerificationRow[]): Promise<void> {
  if (rows.length === 0) return;
  const stored = rows.map((row) => ({
    ...row,
    code_hash: byteaText(row.code_hash),
    client_ip_hash: byteaText(row.client_ip_hash),
  }));
  // One count row per team and month (a statement may not update a row twice), in key order so
  // that concurrent batches lock the count rows in the same order.
  const counts = new Map<string, { team_id: number; month: string; shard: number; codes: number }>();
  for (const row of rows) {
    if (row.code_hash === null) continue;
    const { teamId, month } = codeMonthOf(row);
    const key = `${teamId} ${month}`;
    const count = counts.get(key) ?? { team_id: teamId, month, shard: randomInt(CODE_COUNT_SHARDS), codes: 0 };
    count.codes += 1;
    counts.set(key, count);
  }
  // Rows travel as JSON, so the text never varies with the batch's size and the statement is
  // prepared once per connection.
  await sql`
    WITH stored AS (
      INSERT INTO verifications
      SELECT * FROM jsonb_populate_recordset(NULL::verifications, ${JSON.stringify(stored)}::jsonb)
    )
    INSERT INTO verification_monthly_codes (team_id, month, shard, codes)
    SELECT c.team_id, c.month, c.shard, c.codes
    FROM jsonb_to_recordset(${JSON.stringify([...counts.values()])}::jsonb) AS c (team_id int, month date, shard int, codes bigint)
    ORDER BY c.team_id, c.month
    ON CONFLICT (team_id, month, shard) DO UPDATE SET codes = verification_monthly_codes.codes + excluded.codes`.execute(
    db,
  );
}

export async function getVerification(
  db: Db,
  teamId: number,
  id: string,
): Promise<VerificationWithDelivery | undefined> {
  const row = await getVerificationRow(db, teamId, id);
  if (row === undefined) return undefined;
  const sms = row.sms_id === null ? undefined : await getSmsDelivery(db, teamId, row.sms_id);
  return {
    ...row,
    sms_status: sms?.status ?? null,
    sms_provider_message_id: sms?.provider_message_id ?? null,
    sms_reason_message: sms?.reason_message ?? null,
  };
}

/** The verification row alone (a settled code's check reads it without a lock). */
export async function getVerificationRow(db: Db, teamId: number, id: string): Promise<VerificationRow | undefined> {
  return db
    .selectFrom('verifications')
    .selectAll()
    .where('team_id', '=', teamId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** The verification locked for a check: parallel guesses on one code are taken one at a time. */
export async function getVerificationForUpdate(
  db: Db,
  teamId: number,
  id: string,
): Promise<VerificationRow | undefined> {
  return db
    .selectFrom('verifications')
    .selectAll()
    .where('team_id', '=', teamId)
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst();
}

export async function updateAfterCheck(
  db: Db,
  id: string,
  change: Pick<VerificationRow, 'status' | 'attempts_remaining' | 'reason' | 'verified_at' | 'updated_at'>,
): Promise<void> {
  await db.updateTable('verifications').set(change).where('id', '=', id).execute();
}

/** One guess at a code: `blindedGuess` is sha256(guess digest || nonce), `nonce` fresh per guess. */
export interface Guess {
  teamId: number;
  id: string;
  blindedGuess: Buffer;
  nonce: Buffer;
  now: Date;
}

export type GuessOutcome = { row: VerificationRow; matched: boolean } | undefined;

/**
 * Guesses at pending, unexpired codes with attempts left, in one statement under the row locks
 * (parallel guesses at one code take their turns, each seeing the last one's outcome, so no two may
 * share a statement): a right code becomes `verified` and spends no attempt; a wrong one spends an
 * attempt (`failed` at zero). The stored digest is blinded with the guess's nonce in SQL before the
 * comparison (double hashing, as in Double HMAC Verification), so how long the comparison takes
 * says nothing about the stored digest. Answers in the order of `guesses`; undefined where no
 * attempt could be taken.
 */
export async function guessCodes(db: Db, guesses: readonly Guess[]): Promise<GuessOutcome[]> {
  const matched = sql`(sha256(v.code_hash || g.nonce) = g.blinded)`;
  const result = await sql<VerificationRow & { matched: boolean }>`
    UPDATE verifications v SET
      status = CASE WHEN ${matched} THEN 'verified' WHEN v.attempts_remaining = 1 THEN 'failed' ELSE v.status END,
      attempts_remaining = CASE WHEN ${matched} THEN v.attempts_remaining ELSE v.attempts_remaining - 1 END,
      reason = CASE WHEN ${matched} THEN NULL ELSE 'wrong_code' END,
      verified_at = CASE WHEN ${matched} THEN g.now ELSE v.verified_at END,
      updated_at = g.now
    FROM unnest(${guesses.map((q) => q.teamId)}::integer[], ${guesses.map((q) => q.id)}::text[],
      ${guesses.map((q) => q.blindedGuess)}::bytea[], ${guesses.map((q) => q.nonce)}::bytea[],
      ${guesses.map((q) => q.now)}::timestamptz[]) AS g(team_id, id, blinded, nonce, now)
    WHERE v.team_id = g.team_id AND v.id = g.id AND v.status = 'pending' AND v.attempts_remaining > 0
      AND v.expires_at > g.now
    RETURNING v.*, ${matched} AS matched`.execute(db);
  const byId = new Map<string, GuessOutcome>();
  for (const { matched: right, ...row } of result.rows)
    byId.set(row.id, { row: row as VerificationRow, matched: right });
  return guesses.map((q) => byId.get(q.id));
}
