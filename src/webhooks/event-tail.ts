// The event tail (`herald admin webhooks tail`, GET /admin/v1/teams/{teamId}/events): a team's events
// as they are recorded, each the body a webhook would receive, whether or not the team has a webhook.
// Reading the tail is what keeps it recording (tail-queries.ts openTail): the team's events are
// copied for it for a minute after each read, so a poller that stops costs nothing a minute later.
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { summarizeEvent } from './event-summary.ts';
import { openTail, purgeTailEvents, readTail, type TailEventRow, type TailPosition } from './tail-queries.ts';

/** How long a read keeps the tail recording. A poller reads every second; this covers slow ones. */
export const TAIL_OPEN_MS = 60_000;
/** How long the tail's events are kept (purgeOldCalls' chore removes older ones). */
export const TAIL_KEEP_MS = 24 * 60 * 60 * 1000;

/** A cursor: the xid and id of an event, as `xid.id`. */
export const TAIL_CURSOR = /^\d{1,20}\.\d{1,19}$/;

export interface TailEvent {
  /** Read after this to get the events that follow it. */
  cursor: string;
  type: string;
  createdAt: string;
  about: string | null;
  summary: string;
  /** The body a webhook receives: `{type, createdAt, data}`. */
  event: { type: string; createdAt: string; data: unknown };
}

export interface TailPage {
  data: TailEvent[];
  nextCursor: string;
  hasMore: boolean;
  recordingUntil: string;
}

function positionOf(cursor: string): TailPosition {
  const [xid, id] = cursor.split('.') as [string, string];
  return { xid, id };
}

const later = (a: TailPosition, b: TailPosition): TailPosition =>
  BigInt(a.xid) > BigInt(b.xid) || (a.xid === b.xid && BigInt(a.id) > BigInt(b.id)) ? a : b;

function tailEvent(row: TailEventRow): TailEvent {
  const event = JSON.parse(row.payload) as TailEvent['event'];
  return {
    cursor: `${row.xid}.${row.id}`,
    type: row.type,
    createdAt: event.createdAt ?? row.created_at.toISOString(),
    ...summarizeEvent(row.type, event.data),
    event,
  };
}

/**
 * Keeps the team's tail open and answers its events: after `after` (a cursor from an earlier
 * answer), oldest first, at most `limit` (hasMore: read again at once); without `after`, the newest
 * `limit` already recorded. nextCursor is where the next read starts.
 */
export async function readEventTail(
  db: Kysely<Database>,
  teamId: number,
  options: { after: string | null; limit: number; now: Date },
): Promise<TailPage> {
  const recordingUntil = new Date(options.now.getTime() + TAIL_OPEN_MS);
  await openTail(db, teamId, recordingUntil);
  const after = options.after === null ? null : positionOf(options.after);
  const { horizon, rows } = await readTail(db, teamId, after, after === null ? options.limit : options.limit + 1);
  const hasMore = rows.length > options.limit;
  const page = rows.slice(0, options.limit);
  // A full page ends at its last event; otherwise every settled event has been read, so the next
  // read starts at the horizon (and never before the cursor given).
  const settled: TailPosition = { xid: horizon, id: '0' };
  const next = hasMore ? page.at(-1)! : after === null ? settled : later(settled, after);
  return {
    data: page.map(tailEvent),
    nextCursor: `${next.xid}.${next.id}`,
    hasMore,
    recordingUntil: recordingUntil.toISOString(),
  };
}

/** The tail's events older than a day (a chore of the worker, with the calls' retention). */
export function purgeOldTailEvents(db: Kysely<Database>, now: Date): Promise<number> {
  return purgeTailEvents(db, new Date(now.getTime() - TAIL_KEEP_MS));
}
