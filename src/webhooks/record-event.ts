// The one way for an area to say "something happened": recordEvent validates the payload against
// the catalogue and inserts one webhook call per matching ACTIVE webhook in the caller's
// transaction (a rolled-back write sends nothing). The set-based writers of email events add
// emailEventCallsCte to their own statement instead; both inserts are in event-call-queries.ts.
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';
import { notifyQueue } from '../queue/index.ts';
import { EVENT_CATALOGUE, type EventData, type EventType } from './event-catalogue.ts';
import { insertEventCalls, type EventCallRow } from './event-call-queries.ts';
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
function eventRows(events: readonly EventInput<EventType>[]): EventCallRow[] {
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
  const ids = await insertEventCalls(tx, eventRows(events), options.webhookId);
  if (ids.length > 0) await notifyQueue(tx, WEBHOOK_DELIVERY_QUEUE);
  return ids;
}
