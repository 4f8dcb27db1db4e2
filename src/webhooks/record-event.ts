// The one way for an area to say "something happened": recordEvent validates the payload against
// the catalogue and inserts one webhook call per matching ACTIVE webhook in the caller's
// transaction (a rolled-back write sends nothing). Email events take the set-based path of
// email-event-calls.ts instead, with payloads built in SQL; both match webhooks by the same rule
// (subscribedSql).
import { sql, type Kysely, type RawBuilder, type Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';
import { notifyQueue } from '../queue/index.ts';
import { EVENT_CATALOGUE, type EventData, type EventType } from './event-catalogue.ts';
import { eventBody, WEBHOOK_DELIVERY_QUEUE } from './events.ts';

export interface EventInput<T extends EventType> {
  teamId: number;
  type: T;
  /** The domain the event belongs to; null (no domain: SMS, webhook.test) reaches only webhooks without a domainIds filter. */
  domainId: number | null;
  data: EventData<T>;
  /** When it happened (deps.clock): the envelope's createdAt and the calls' first attempt. */
  at: Date;
}

export interface RecordEventOptions {
  /** Only this webhook of the team, whatever its status and subscriptions (webhook.test). */
  webhookId?: string;
}

/** A webhook `w` subscribed to event type `type` and domain `domainId` (empty lists: everything). */
export function subscribedSql(type: unknown, domainId: unknown) {
  return sql`w.status = 'ACTIVE'
    AND (cardinality(w.event_types) = 0 OR ${type} = ANY (w.event_types))
    AND (cardinality(w.domain_ids) = 0 OR ${domainId} = ANY (w.domain_ids))`;
}

/**
 * Records the event; answers the ids of the calls made (one per webhook, in webhook id order).
 * A payload that does not match the catalogue is a programming error: it throws and makes nothing.
 */
export async function recordEvent<T extends EventType>(
  tx: Transaction<Database> | Kysely<Database>,
  event: EventInput<T>,
  options: RecordEventOptions = {},
): Promise<string[]> {
  return recordEvents(tx, [event], options);
}

/** The events as the INSERT reads them: each payload validated against the catalogue, in its envelope. */
function eventRows(events: readonly EventInput<EventType>[]) {
  return events.map((event, n) => {
    const parsed = EVENT_CATALOGUE[event.type].data.safeParse(event.data);
    if (!parsed.success)
      throw new Error(`recordEvent: ${event.type} payload does not match the catalogue: ${parsed.error.message}`);
    return {
      n,
      team_id: event.teamId,
      type: event.type,
      domain_id: event.domainId,
      at: event.at.toISOString(),
      payload: eventBody(event.type, event.at, parsed.data),
    };
  });
}

function callsInsert(events: readonly EventInput<EventType>[], which: RawBuilder<unknown>) {
  return sql`
    INSERT INTO webhook_calls (id, team_id, webhook_id, type, payload, api_version, status, attempt, next_attempt_at, created_at, updated_at)
    SELECT herald_new_id('msg_', e.at), w.team_id, w.id, e.type, e.payload, w.api_version, 'PENDING', 0, e.at, e.at, e.at
    FROM jsonb_to_recordset(${JSON.stringify(eventRows(events))}::jsonb)
      AS e (n integer, team_id integer, type text, domain_id integer, at timestamptz, payload text)
    JOIN webhooks w ON w.team_id = e.team_id AND ${which}
    ORDER BY e.n, w.id`;
}

/**
 * Records several events in one statement (a worker's batch of outcomes); answers the calls' ids,
 * event by event in the given order, each event's in webhook id order (the insert's order).
 */
export async function recordEvents(
  tx: Transaction<Database> | Kysely<Database>,
  events: readonly EventInput<EventType>[],
  options: RecordEventOptions = {},
): Promise<string[]> {
  if (events.length === 0) return [];
  const which =
    options.webhookId === undefined ? subscribedSql(sql`e.type`, sql`e.domain_id`) : sql`w.id = ${options.webhookId}`;
  const result = await sql<{ id: string }>`${callsInsert(events, which)} RETURNING id`.execute(tx);
  if (result.rows.length > 0) await notifyQueue(tx, WEBHOOK_DELIVERY_QUEUE);
  return result.rows.map((row) => row.id);
}
