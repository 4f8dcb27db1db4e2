// The statements of team notices (team_notices). The recipients are read (accounts) in the
// transaction that writes the notice: those of the moment it was written.
import { sql } from 'kysely';
import type { Db } from '../db/handle.ts';

interface NoticeText {
  kind: string;
  subject: string;
  text: string;
}

/** One notice to these recipients, due now. */
export async function insertTeamNotice(
  tx: Db,
  teamId: number,
  recipients: string[],
  notice: NoticeText,
  now: Date,
): Promise<void> {
  await tx
    .insertInto('team_notices')
    .values({
      team_id: teamId,
      kind: notice.kind,
      recipients,
      subject: notice.subject,
      text: notice.text,
      due_at: now,
      created_at: now,
    })
    .execute();
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

/** The notices-queue's rows still to mail (its readyWhere). */
export const NOTICE_UNSENT = sql`sent_at IS NULL`;
