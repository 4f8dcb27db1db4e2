// The statements of team notices (team_notices). Addressing a notice reads the team's owners and
// admins in the INSERT itself, so the recipients are those of the moment the notice was written.
import { sql } from 'kysely';
import type { Db } from '../db/handle.ts';

interface NoticeText {
  kind: string;
  subject: string;
  text: string;
}

/** One notice to the team's owners and admins today; false (nothing written) when it has none. */
export async function insertTeamNotice(tx: Db, teamId: number, notice: NoticeText, now: Date): Promise<boolean> {
  const inserted = await sql<{ id: string }>`
    INSERT INTO team_notices (team_id, kind, recipients, subject, text, due_at, created_at)
    SELECT ${teamId}::int, ${notice.kind}, array_agg(email ORDER BY id), ${notice.subject}, ${notice.text}, ${now}::timestamptz, ${now}::timestamptz
    FROM members WHERE team_id = ${teamId} AND role IN ('OWNER', 'ADMIN')
    HAVING count(*) > 0
    RETURNING id`.execute(tx);
  return inserted.rows.length > 0;
}

/** The name a key was given, for notices; null when it has none or is gone. */
export async function apiKeyName(db: Db, teamId: number, keyId: string): Promise<string | null> {
  const row = await db
    .selectFrom('api_keys')
    .select('name')
    .where('team_id', '=', teamId)
    .where('id', '=', keyId)
    .executeTakeFirst();
  return row?.name ?? null;
}

/** Marks the queue's finished notices sent (with the error of a notice given up), under its lease. */
export async function markNoticesSent(
  db: Db,
  items: { id: string; error: string | null }[],
  leaseUntil: Date,
  now: Date,
): Promise<void> {
  await sql`
    UPDATE team_notices n SET sent_at = ${now}, lease_until = NULL, last_error = job.error
    FROM unnest(${items.map((item) => item.id)}::bigint[], ${items.map((item) => item.error)}::text[]) AS job(id, error)
    WHERE n.id = job.id AND n.lease_until = ${leaseUntil}`.execute(db);
}
