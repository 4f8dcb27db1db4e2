// Recording an event that arrives after sending (a bounce report, a complaint, an open or a click,
// read by later capabilities): the event always joins the history; the email's status changes only
// where the precedence table allows. One statement, so the two cannot disagree.
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database, EmailStatus } from '../db/schema.ts';
import { replaceableBy } from './status-precedence.ts';

export interface RecordedEvent {
  /** False when the team has no such email. */
  found: boolean;
  /** The status the email shows afterwards. */
  status: EmailStatus | null;
}

export async function recordEmailEvent(
  db: Kysely<Database> | Transaction<Database>,
  teamId: number,
  emailId: string,
  status: EmailStatus,
  data: unknown,
  now: Date,
): Promise<RecordedEvent> {
  const replaceable = replaceableBy(status);
  const result = await sql<{ status: EmailStatus }>`
    WITH email AS (
      SELECT id, status FROM emails WHERE team_id = ${teamId} AND id = ${emailId} FOR UPDATE
    ),
    moved AS (
      UPDATE emails SET status = ${status}, updated_at = ${now}
      WHERE team_id = ${teamId} AND id = (SELECT id FROM email) AND status = ANY(${replaceable}::text[])
      RETURNING status
    ),
    event AS (
      INSERT INTO email_events (team_id, email_id, status, data, created_at)
      SELECT ${teamId}::int, id, ${status}, ${data === undefined || data === null ? null : JSON.stringify(data)}::jsonb, ${now}::timestamptz FROM email
    )
    SELECT COALESCE((SELECT status FROM moved), (SELECT status FROM email)) AS status FROM email`.execute(db);
  const row = result.rows[0];
  return row === undefined ? { found: false, status: null } : { found: true, status: row.status };
}
