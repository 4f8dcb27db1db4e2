// The statements that turn events into webhook calls. recordEvents' insert takes events validated in
// TypeScript (record-event.ts); emailEventCallsCte joins the statement that writes email events
// (src/emails), over a relation of those events with their payloads built in TypeScript
// (src/emails/views.ts emailEventView), so an event and its calls commit together and a batch of
// events costs one set-based fan-out. Both match webhooks by the same rule (subscribedSql). Every
// row carries its team: one statement may serve several teams' events. Both also copy the events of
// a team whose tail is open into webhook_tail_events (tailedEventsCte, `herald admin webhooks tail`).
//
// Still triggers on email_events (no new ones): email_events_daily_stats (0010_analytics.sql) and
// email_events_address_activity (0004_emails.sql).
import { sql, type Kysely, type RawBuilder, type Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';
import { QUEUE_CHANNEL } from '../queue/index.ts';
import { WEBHOOK_DELIVERY_QUEUE } from './events.ts';

/** A webhook `w` subscribed to event type `type` and domain `domainId` (empty lists: everything). */
function subscribedSql(type: unknown, domainId: unknown) {
  return sql`w.status = 'ACTIVE'
    AND (cardinality(w.event_types) = 0 OR ${type} = ANY (w.event_types))
    AND (cardinality(w.domain_ids) = 0 OR ${domainId} = ANY (w.domain_ids))`;
}

/**
 * The events of `relation` (columns n, team_id, type, domain_id, at, payload; a null payload is no
 * event) of teams whose tail is open (0024_webhook_event_tail.sql), in `n` order. Teams nobody tails
 * cost the EXISTS, a probe of a table that is empty unless someone ran the tail.
 */
function tailedEventsCte(name: string, relation: RawBuilder<unknown>): RawBuilder<unknown> {
  return sql`${sql.raw(name)} AS (
      INSERT INTO webhook_tail_events (team_id, type, domain_id, payload, created_at)
      SELECT e.team_id, e.type, e.domain_id, e.payload, e.at
      FROM ${relation} e
      JOIN webhook_tails tail ON tail.team_id = e.team_id AND tail.open_until > e.at
      WHERE e.payload IS NOT NULL AND EXISTS (SELECT 1 FROM webhook_tails)
      ORDER BY e.n
    )`;
}

/** An event as the insert reads it: its payload already validated and in its envelope. */
export interface EventCallRow {
  /** Its place in the batch: the calls come back in this order. */
  n: number;
  team_id: number;
  type: string;
  domain_id: number | null;
  /** ISO time: the envelope's createdAt and the calls' first attempt. */
  at: string;
  payload: string;
}

/**
 * One call per event and webhook: every subscribed ACTIVE webhook of the event's team, or only
 * `webhookId` (whatever its status and subscriptions: webhook.test). Answers the calls' ids, event
 * by event in row order, each event's in webhook id order.
 */
export async function insertEventCalls(
  tx: Transaction<Database> | Kysely<Database>,
  rows: readonly EventCallRow[],
  webhookId?: string,
): Promise<string[]> {
  const which = webhookId === undefined ? subscribedSql(sql`e.type`, sql`e.domain_id`) : sql`w.id = ${webhookId}`;
  const result = await sql<{ id: string }>`
    WITH recorded AS (
      SELECT * FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
        AS e (n integer, team_id integer, type text, domain_id integer, at timestamptz, payload text)
    ),
    ${tailedEventsCte('recorded_tail', sql`recorded`)}
    INSERT INTO webhook_calls (id, team_id, webhook_id, type, payload, api_version, status, attempt, next_attempt_at, created_at, updated_at)
    SELECT herald_new_id('msg_', e.at), w.team_id, w.id, e.type, e.payload, w.api_version, 'PENDING', 0, e.at, e.at, e.at
    FROM recorded e
    JOIN webhooks w ON w.team_id = e.team_id AND ${which}
    ORDER BY e.n, w.id RETURNING id`.execute(tx);
  return result.rows.map((row) => row.id);
}

/** The calls' insert from `e`; `teams` reads the events' teams for the once-per-statement filter. */
function callsFromEvents(
  from: RawBuilder<unknown>,
  payload: RawBuilder<unknown>,
  teams: RawBuilder<unknown>,
  where: RawBuilder<unknown>,
): RawBuilder<unknown> {
  return sql`INSERT INTO webhook_calls (id, team_id, webhook_id, type, payload, api_version, status, attempt, next_attempt_at, created_at, updated_at)
      SELECT herald_new_id('msg_', e.at), e.team_id, w.id, e.type, ${payload},
             w.api_version, 'PENDING', 0, e.at, e.at, e.at
      FROM ${from}
      JOIN webhooks w ON w.team_id = e.team_id AND ${subscribedSql(sql`e.type`, sql`e.domain_id`)}
      -- Checked once per statement: teams without an ACTIVE webhook (most) read nothing more.
      WHERE EXISTS (SELECT 1 FROM webhooks a WHERE a.status = 'ACTIVE' AND a.team_id IN (${teams}))
      ${where}
      ORDER BY e.n, w.id
      RETURNING pg_notify(${QUEUE_CHANNEL}, ${WEBHOOK_DELIVERY_QUEUE})`;
}

/**
 * CTEs for the caller's WITH list (`WITH recorded AS (…), …, ${emailEventCallsCte('recorded')} SELECT …`):
 * one call per matching ACTIVE webhook for each row of the relation `recorded`, the events the
 * statement inserts, with columns n (their order), team_id, domain_id, type, payload (the call's
 * body, built in TypeScript; rows with a null payload make no call) and at; and the events of teams
 * whose tail is open. Data-modifying CTEs run whether or not the statement reads them. The NOTIFY
 * that wakes the dispatchers happens only when calls were made (PostgreSQL sends one per transaction).
 */
export function emailEventCallsCte(recorded: string): RawBuilder<unknown> {
  const events = sql.table(recorded);
  return sql`email_event_calls AS (
      ${callsFromEvents(
        sql`${events} e`,
        sql`e.payload`,
        sql`SELECT DISTINCT t.team_id FROM ${events} t`,
        sql`AND e.payload IS NOT NULL`,
      )}
    ),
    ${tailedEventsCte('email_event_tail', events)}`;
}
