// Email events and their webhook calls in ONE statement: every INSERT INTO email_events goes through
// emailEventsWithCalls, which wraps it in CTEs that also insert one call per matching ACTIVE webhook
// (the catalogue's email payload, built in SQL), so an event and its calls commit together and a
// batch of events costs one set-based fan-out, as the trigger of migration 0013 did.
//
// Still triggers on email_events (no new ones): email_events_daily_stats (migration 0014) and
// email_events_address_activity (migration 0017).
import { sql, type RawBuilder } from 'kysely';
import { QUEUE_CHANNEL } from '../queue/index.ts';
import { EMAIL_EVENT_TYPE_SQL, emailEventPayloadSql } from './event-catalogue.ts';
import { WEBHOOK_DELIVERY_QUEUE } from './events.ts';
import { subscribedSql } from './record-event.ts';

export interface EmailEventsWithCallsOptions {
  /**
   * The relation the events' emails are read from (id, domain_id, "from", "to", subject,
   * created_at): `emails` by default; the name of a CTE whose INSERT … RETURNING made them when
   * the same statement inserts the emails (a statement does not see its own inserts).
   */
  emailsFrom?: string;
}

/**
 * Two CTEs for the caller's WITH list (`WITH …, ${emailEventsWithCalls(insert)} SELECT …`):
 * `email_events_inserted` (the given `INSERT INTO email_events … ` with no RETURNING of its own)
 * and `email_event_calls`. Data-modifying CTEs run whether or not the statement reads them.
 *
 * Teams without an ACTIVE webhook pay one EXISTS per statement (a one-time filter). The NOTIFY that
 * wakes the dispatchers happens only when calls were made (PostgreSQL sends one per transaction).
 */
export function emailEventsWithCalls(
  insert: RawBuilder<unknown>,
  options: EmailEventsWithCallsOptions = {},
): RawBuilder<unknown> {
  const emails = sql.table(options.emailsFrom ?? 'emails');
  return sql`email_events_inserted AS (
      ${insert}
      RETURNING id, team_id, email_id, status, data, created_at
    ),
    email_event_calls AS (
      INSERT INTO webhook_calls (id, team_id, webhook_id, type, payload, api_version, status, attempt, next_attempt_at, created_at, updated_at)
      SELECT herald_new_id('msg_', e.created_at), e.team_id, w.id, k.type, ${emailEventPayloadSql(sql`k.type`)}::text,
             w.api_version, 'PENDING', 0, e.created_at, e.created_at, e.created_at
      FROM email_events_inserted e
      CROSS JOIN LATERAL (SELECT ${EMAIL_EVENT_TYPE_SQL} AS type) k
      JOIN ${emails} m ON m.id = e.email_id
      JOIN webhooks w ON w.team_id = e.team_id AND ${subscribedSql(sql`k.type`, sql`m.domain_id`)}
      WHERE EXISTS (
        SELECT 1 FROM webhooks a
        WHERE a.status = 'ACTIVE' AND a.team_id IN (SELECT DISTINCT t.team_id FROM email_events_inserted t)
      )
      -- The emails by index probes, whatever the statistics say (as the callers find them).
      AND m.id = ANY(ARRAY(SELECT t.email_id FROM email_events_inserted t))
      ORDER BY e.id, w.id
      RETURNING pg_notify(${QUEUE_CHANNEL}, ${WEBHOOK_DELIVERY_QUEUE})
    )`;
}
