// The suppression list's statements: the one upsert (the feedback batch, record-reports.ts; the
// delivery session's refusals; a team adding an address, suppression-routes.ts), the reads and
// deletes (the team's routes and admin's), and the fragment the send path embeds.
import { sql, type Kysely, type RawBuilder, type Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';

export interface SuppressionRow {
  email: string;
  reason: string;
  email_id: string | null;
  created_at: Date;
  /** created_at to the microsecond, UTC: the cursor position (a Date keeps only milliseconds). */
  position: string;
}

/** MANUAL: added by the team through the API. */
export const SUPPRESSION_REASONS = ['HARD_BOUNCE', 'COMPLAINT', 'MANUAL'] as const;

export interface Suppression {
  team_id: number;
  email: string;
  reason: (typeof SUPPRESSION_REASONS)[number];
  /** The email whose bounce or complaint added it; null when added through the API. */
  email_id: string | null;
}

/** A row the upsert wrote: inserted, or an earlier reason replaced by a complaint. */
export interface WrittenSuppression {
  team_id: number;
  email: string;
  inserted: boolean;
}

/**
 * Inserts the batch's suppressions (at most one row per team and address), several teams' in one
 * statement: a complaint replaces an earlier reason, never the other way round; any other reason
 * leaves an address already listed as it was. Answers the rows it wrote.
 */
export async function upsertSuppressions(
  tx: Transaction<Database>,
  suppressions: readonly Suppression[],
  now: Date,
): Promise<WrittenSuppression[]> {
  // Sorted: rows are locked in this order, the same in every batch, so batches cannot deadlock.
  const rows = [...suppressions].sort(
    (a, b) => a.team_id - b.team_id || (a.email < b.email ? -1 : a.email > b.email ? 1 : 0),
  );
  // xmax is 0 on a row version this statement inserted; one it updated carries this transaction's id.
  const written = await sql<WrittenSuppression>`
    INSERT INTO suppressions (team_id, email, reason, email_id, created_at)
    SELECT s.team_id, s.email, s.reason, s.email_id, ${now}
    FROM unnest(${rows.map((r) => r.team_id)}::int[], ${rows.map((r) => r.email)}::text[], ${rows.map((r) => r.reason)}::text[], ${rows.map((r) => r.email_id)}::text[])
      AS s(team_id, email, reason, email_id)
    ORDER BY s.team_id, s.email
    ON CONFLICT (team_id, email) DO UPDATE SET reason = EXCLUDED.reason, email_id = EXCLUDED.email_id
    WHERE EXCLUDED.reason = 'COMPLAINT' AND suppressions.reason <> 'COMPLAINT'
    RETURNING suppressions.team_id, suppressions.email, (suppressions.xmax = 0) AS inserted`.execute(tx);
  return written.rows;
}

function selectSuppressions(db: Kysely<Database>, teamId: number) {
  return db
    .selectFrom('suppressions')
    .select(['email', 'reason', 'email_id', 'created_at'])
    .select(sql<string>`to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`.as('position'))
    .where('team_id', '=', teamId);
}

export async function getSuppression(
  db: Kysely<Database>,
  teamId: number,
  email: string,
): Promise<SuppressionRow | undefined> {
  return selectSuppressions(db, teamId).where('email', '=', email).executeTakeFirst();
}

/** Newest first; ties on created_at broken by address, so a page never repeats or skips a row. */
export async function listSuppressions(
  db: Kysely<Database>,
  teamId: number,
  email: string | undefined,
  after: readonly [string, string] | null,
  limit: number,
): Promise<SuppressionRow[]> {
  let query = selectSuppressions(db, teamId);
  if (email !== undefined) query = query.where('email', '=', email);
  if (after !== null) query = query.where(sql<boolean>`(created_at, email) < (${after[0]}::timestamptz, ${after[1]})`);
  return query
    .orderBy('created_at', 'desc')
    .orderBy('email', 'desc')
    .limit(limit + 1)
    .execute();
}

/** False when the team has no such row. In the caller's transaction when given one. */
export async function deleteSuppression(db: Kysely<Database>, teamId: number, email: string): Promise<boolean> {
  const deleted = await db
    .deleteFrom('suppressions')
    .where('team_id', '=', teamId)
    .where('email', '=', email)
    .executeTakeFirst();
  return deleted.numDeletedRows > 0n;
}

/** Whether the team (int expression) suppresses `email` (text expression): a fragment another area's statement embeds. */
export function isSuppressed(teamId: RawBuilder<unknown>, email: RawBuilder<unknown>): RawBuilder<boolean> {
  return sql<boolean>`EXISTS (SELECT 1 FROM suppressions AS s WHERE s.team_id = ${teamId} AND s.email = ${email})`;
}
