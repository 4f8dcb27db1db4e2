// The SMS delivery worker's events and their webhook calls inside its outcome statement: one call
// per event of a message the statement wrote, per ACTIVE webhook that wants it, with the payload
// built in SQL (smsEventPayloadSql) from the row as written. Events nobody subscribed to cost no
// payload at all, which is most of them.
import { sql, type RawBuilder } from 'kysely';
import type { SmsStatus } from '../db/schema-sms.ts';
import { QUEUE_CHANNEL } from '../queue/index.ts';
import { smsEventPayloadSql } from './event-catalogue.ts';
import { WEBHOOK_DELIVERY_QUEUE } from './events.ts';
import { subscribedSql } from './record-event.ts';

/** An `sms.<status>` event of a message, at its row's updated_at. */
export interface SmsStatusEvent {
  smsId: string;
  /** Every status but the first: a message is stored `queued`, with no event. */
  status: Exclude<SmsStatus, 'queued'>;
}

/**
 * A CTE for the caller's WITH list (`WITH written AS (UPDATE sms_messages m … RETURNING m.*, c.events),
 * ${smsEventCallsCte('written')} SELECT …`): the calls of the events of the messages in `written`,
 * whose `events` column lists each one's statuses in order, comma-separated (sent, or sent,delivered).
 * The payload reads every column but status from that row, so an event's status must be the row's
 * only difference from what it was when the event happened.
 */
export function smsEventCallsCte(written: string): RawBuilder<unknown> {
  return sql`sms_event_calls AS (
    INSERT INTO webhook_calls (id, team_id, webhook_id, type, payload, api_version, status, attempt, next_attempt_at, created_at, updated_at)
    SELECT herald_new_id('msg_', m.updated_at), m.team_id, w.id, e.type,
           ${smsEventPayloadSql(sql`e.type`, sql`e.status`)}::text,
           w.api_version, 'PENDING', 0, m.updated_at, m.updated_at, m.updated_at
    FROM ${sql.table(written)} m
    CROSS JOIN LATERAL unnest(string_to_array(m.events, ',')) WITH ORDINALITY AS s(status, n)
    CROSS JOIN LATERAL (SELECT s.status, 'sms.' || s.status AS type) e
    JOIN webhooks w ON w.team_id = m.team_id AND ${subscribedSql(sql`e.type`, sql`NULL::integer`)}
    -- Checked once per statement: without it each written row probes the webhooks index.
    WHERE EXISTS (
      SELECT 1 FROM webhooks a
      WHERE a.status = 'ACTIVE' AND a.team_id IN (SELECT DISTINCT t.team_id FROM ${sql.table(written)} t)
    )
    ORDER BY m.id, s.n, w.id
    RETURNING pg_notify(${QUEUE_CHANNEL}, ${WEBHOOK_DELIVERY_QUEUE})
  )`;
}
