// Email events and their webhook calls in ONE statement: a writer of email_events (src/emails) adds
// emailEventCallsCte to the statement that inserts the events, over a relation of those events with
// their payloads built in TypeScript (src/emails/views.ts emailEventView), so an event and its calls
// commit together and a batch of events costs one set-based fan-out. Events written one at a time go through recordEvent instead.
//
// Still triggers on email_events (no new ones): email_events_daily_stats (0010_analytics.sql) and
// email_events_address_activity (0004_emails.sql).
import { sql, type RawBuilder } from 'kysely';
import { QUEUE_CHANNEL } from '../queue/index.ts';
import { WEBHOOK_DELIVERY_QUEUE } from './events.ts';
import { subscribedSql } from './record-event.ts';

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
 * A CTE for the caller's WITH list (`WITH recorded AS (…), …, ${emailEventCallsCte('recorded')} SELECT …`):
 * one call per matching ACTIVE webhook for each row of the relation `recorded`, the events the
 * statement inserts, with columns n (their order), team_id, domain_id, type, payload (the call's
 * body, built in TypeScript; rows with a null payload make no call) and at. Data-modifying CTEs run
 * whether or not the statement reads them. The NOTIFY that wakes the dispatchers happens only when
 * calls were made (PostgreSQL sends one per transaction).
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
    )`;
}
