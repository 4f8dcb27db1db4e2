// The one way for an area to say "something happened": recordEvent validates the payload against
// the catalogue and inserts one webhook call per matching ACTIVE webhook in the caller's
// transaction (a rolled-back write sends nothing). Email events take the set-based path of
// email-event-calls.ts instead; both match webhooks by the same rule (SUBSCRIBED_SQL).
import { sql, type Kysely, type Transaction } from 'kysely';
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
  const parsed = EVENT_CATALOGUE[event.type].data.safeParse(event.data);
  if (!parsed.success)
    throw new Error(`recordEvent: ${event.type} payload does not match the catalogue: ${parsed.error.message}`);
  const payload = eventBody(event.type, event.at, parsed.data);
  const which =
    options.webhookId === undefined
      ? subscribedSql(sql`${event.type}::text`, sql`${event.domainId}::int`)
      : sql`w.id = ${options.webhookId}`;
  const { rows } = await sql<{ id: string }>`
    INSERT INTO webhook_calls (id, team_id, webhook_id, type, payload, api_version, status, attempt, next_attempt_at, created_at, updated_at)
    SELECT herald_new_id('msg_', ${event.at}::timestamptz), w.team_id, w.id, ${event.type}, ${payload}, w.api_version, 'PENDING', 0,
           ${event.at}::timestamptz, ${event.at}::timestamptz, ${event.at}::timestamptz
    FROM webhooks w
    WHERE w.team_id = ${event.teamId}::int AND ${which}
    ORDER BY w.id
    RETURNING id`.execute(tx);
  if (rows.length > 0) await notifyQueue(tx, WEBHOOK_DELIVERY_QUEUE);
  return rows.map((row) => row.id);
}
