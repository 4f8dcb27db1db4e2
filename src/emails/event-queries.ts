// The SQL of email events: those that arrive after sending (email-events.ts), where each event joins
// the history and moves its email's status where the precedence table allows, for a batch in one
// statement; the emails their payloads show; one event inserted alone; and the CTEs every set-based
// writer of events ends with (the events and their webhook calls, from one relation).
// Over many teams: every input row carries its team, and every join matches it.
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database, EmailStatus } from '../db/schema.ts';
import { emailEventCallsCte } from '../webhooks/index.ts';
import type { EmailEventCall, EmailOfEvent } from './views.ts';

type Db = Kysely<Database> | Transaction<Database>;

/**
 * Two CTEs for a WITH list: the events of the relation `recorded` inserted into email_events in `n`
 * order, and their webhook calls (emailEventCallsCte). Its columns: n, team_id, email_id, status,
 * data, open_key, at, and the calls' domain_id, type and payload (views.ts emailEventCall).
 */
export function recordedEventsCtes(recorded: string) {
  return sql`email_events_inserted AS (
      INSERT INTO email_events (team_id, email_id, status, data, open_key, created_at)
      SELECT r.team_id, r.email_id, r.status, r.data, r.open_key, r.at FROM ${sql.table(recorded)} r ORDER BY r.n
    ),
    ${emailEventCallsCte(recorded)}`;
}

/** One event as the statement reads it: `n` its place, `replaceable` the statuses it may move the email from. */
interface EventRowInput extends Partial<EmailEventCall> {
  n: number;
  team_id: number;
  email_id: string;
  status: EmailStatus;
  data: unknown;
  at: string;
  replaceable: EmailStatus[];
}

/**
 * Inserts each event (for emails found with their team) with its webhook calls and moves each found
 * email's status, the emails locked FOR UPDATE in id order; answers per input row, in `n` order,
 * whether the email was found and the status it shows afterwards. At most one event per email (the
 * caller checks).
 */
export async function insertEventsAndMoveStatuses(
  db: Db,
  input: EventRowInput[],
): Promise<{ n: number; found: boolean; status: EmailStatus | null }[]> {
  // One JSON parameter rather than arrays per column: the same text for pg and PGlite, no array
  // literal escaping. A JSON null becomes an SQL NULL in `data`, as recordEmailEvent always stored.
  // The UPDATE tests the row's own status (re-read if a concurrent writer changed it after our lock
  // wait), not the locked CTE's copy.
  const result = await sql<{ n: number; found: boolean; status: EmailStatus | null }>`
    WITH input AS (
      SELECT * FROM jsonb_to_recordset(${JSON.stringify(input)}::jsonb)
        AS i(n int, team_id int, email_id text, status text, data jsonb, at timestamptz, replaceable text[],
             domain_id int, type text, payload text)
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
    recorded AS (
      SELECT i.n, i.team_id, i.email_id, i.status, i.data, NULL::text AS open_key, i.at, i.domain_id, i.type, i.payload
      FROM input i JOIN email e ON e.id = i.email_id
    ),
    ${recordedEventsCtes('recorded')}
    SELECT i.n, e.id IS NOT NULL AS found, COALESCE(mv.status, e.status) AS status
    FROM input i LEFT JOIN email e ON e.id = i.email_id LEFT JOIN moved mv ON mv.id = i.email_id
    ORDER BY i.n`.execute(db);
  return result.rows;
}

/** The emails that events' payloads show, by id. Over many teams: the caller matches each one's team. */
export async function readEmailsOfEvents(db: Db, ids: readonly string[]): Promise<EmailOfEvent[]> {
  if (ids.length === 0) return [];
  const { rows } = await sql<EmailOfEvent>`
    SELECT id, team_id, domain_id, campaign_id, "from", "to", subject, created_at FROM emails
    WHERE id = ANY(${[...new Set(ids)]}::text[])`.execute(db);
  return rows;
}

/** One event of the team's email, inserted alone (its webhook calls: recordEvent, by the caller). */
export async function insertEmailEvent(
  tx: Transaction<Database>,
  teamId: number,
  emailId: string,
  status: EmailStatus,
  data: unknown,
  at: Date,
): Promise<void> {
  await tx
    .insertInto('email_events')
    .values({
      team_id: teamId,
      email_id: emailId,
      status,
      data: data == null ? null : JSON.stringify(data),
      created_at: at,
    })
    .execute();
}
