// Reads and deletes of a team's suppression list for the operator (admin's suppression routes);
// the rows are written by the feedback batch (record-reports.ts) and read by the send path.
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Database } from '../db/schema.ts';

export interface SuppressionRow {
  email: string;
  reason: string;
  email_id: string | null;
  created_at: Date;
  /** created_at to the microsecond, UTC: the cursor position (a Date keeps only milliseconds). */
  position: string;
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

/** False when the team has no such row. */
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
