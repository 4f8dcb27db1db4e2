// The SQL of email events that arrive after sending (email-events.ts): each event joins the history
// and moves its email's status where the precedence table allows, for a batch in one statement.
// Over many teams: every input row carries its team, and every join matches it.
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database, EmailStatus } from '../db/schema.ts';
import { emailEventsWithCalls } from '../webhooks/index.ts';

/** One event as the statement reads it: `n` its place, `replaceable` the statuses it may move the email from. */
interface EventRowInput {
  n: number;
  team_id: number;
  email_id: string;
  status: EmailStatus;
  data: unknown;
  at: string;
  replaceable: EmailStatus[];
}

/**
 * Inserts each event (for emails found with their team) and moves each found email's status, the
 * emails locked FOR UPDATE in id order; answers per input row, in `n` order, whether the email was
 * found and the status it shows afterwards. At most one event per email (the caller checks).
 */
export async function insertEventsAndMoveStatuses(
  db: Kysely<Database> | Transaction<Database>,
  input: EventRowInput[],
): Promise<{ n: number; found: boolean; status: EmailStatus | null }[]> {
  // One JSON parameter rather than arrays per column: the same text for pg and PGlite, no array
  // literal escaping. A JSON null becomes an SQL NULL in `data`, as recordEmailEvent always stored.
  // The UPDATE tests the row's own status (re-read if a concurrent writer changed it after our lock
  // wait), not the locked CTE's copy.
  const result = await sql<{ n: number; found: boolean; status: EmailStatus | null }>`
    WITH input AS (
      SELECT * FROM jsonb_to_recordset(${JSON.stringify(input)}::jsonb)
        AS i(n int, team_id int, email_id text, status text, data jsonb, at timestamptz, replaceable text[])
    ),
    -- The emails found by their ids (= ANY(ARRAY(...)): an index probe each, whatever the
    -- statistics say; on a small table the planner would rather read all of it).
    email AS (
      SELECT m.id, m.status FROM emails m JOIN input i ON m.team_id = i.team_id AND m.id = i.email_id
      WHERE m.id = ANY(ARRAY(SELECT k.email_id FROM input k))
      ORDER BY m.id FOR UPDATE OF m
    ),
    moved AS (
      UPDATE emails m SET status = i.status, updated_at = i.at
      FROM email e JOIN input i ON i.email_id = e.id
      WHERE m.team_id = i.team_id AND m.id = e.id AND m.status = ANY(i.replaceable)
      RETURNING m.id, m.status
    ),
    ${emailEventsWithCalls(sql`
      INSERT INTO email_events (team_id, email_id, status, data, created_at)
      SELECT i.team_id, i.email_id, i.status, i.data, i.at FROM input i JOIN email e ON e.id = i.email_id
      ORDER BY i.n`)}
    SELECT i.n, e.id IS NOT NULL AS found, COALESCE(mv.status, e.status) AS status
    FROM input i LEFT JOIN email e ON e.id = i.email_id LEFT JOIN moved mv ON mv.id = i.email_id
    ORDER BY i.n`.execute(db);
  return result.rows;
}
