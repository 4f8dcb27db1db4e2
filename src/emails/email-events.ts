// Recording an event that arrives after sending (a bounce report, a complaint, an open or a click):
// the event always joins the history; the email's status changes only where the precedence table
// allows. One statement, so the two cannot disagree; one statement for a whole batch, so a busy
// writer (open and click tracking) pays one round trip and one firing of the statement-level
// fan-out to webhook calls and of the triggers on email_events (daily counters, address activity)
// per batch instead of per event. The statement is event-queries.ts insertEventsAndMoveStatuses.
// Each event's webhook payload is built here from its email (views.ts emailEventCall), read with one
// statement per batch unless the caller read it already.
import type { Kysely, Transaction } from 'kysely';
import type { Database, EmailStatus } from '../db/schema.ts';
import { emailEventType, recordEvent } from '../webhooks/index.ts';
import { insertEmailEvent, insertEventsAndMoveStatuses, readEmailsOfEvents } from './event-queries.ts';
import { replaceableBy } from './status-precedence.ts';
import { emailEventCall, emailEventView, type EmailOfEvent } from './views.ts';

export interface RecordedEvent {
  /** False when the team has no such email. */
  found: boolean;
  /** The status the email shows afterwards. */
  status: EmailStatus | null;
}

export interface EmailEventInput {
  teamId: number;
  emailId: string;
  status: EmailStatus;
  /** Stored as JSON (null and undefined as SQL NULL). */
  data: unknown;
  at: Date;
  /** The email, when the caller read it already (feedback does); else recordEmailEvents reads it. */
  email?: EmailOfEvent;
}

// While the email is QUEUED or SCHEDULED the delivery worker owns its status (recipients may still
// await a retry): a report about a copy that already went out joins the history but moves nothing.
const OWNED_BY_DELIVERY: readonly EmailStatus[] = ['QUEUED', 'SCHEDULED'];
const replaceableCache = new Map<EmailStatus, EmailStatus[]>();
/** The statuses an event of `status` may move an email from, after sending (cached: per event). */
export function replaceableByEvent(status: EmailStatus): EmailStatus[] {
  let statuses = replaceableCache.get(status);
  if (statuses === undefined) {
    statuses = replaceableBy(status).filter((current) => !OWNED_BY_DELIVERY.includes(current));
    replaceableCache.set(status, statuses);
  }
  return statuses;
}

/**
 * Records each event as `recordEmailEvent` would, in ONE statement; answers in input order.
 *
 * At most one event per email per call: an UPDATE changes a row once per statement, so a second
 * event of the same email could not move the status after the first (precedence depends on the
 * order). The caller splits such batches (src/tracking/routes.ts does); a repeated email id throws.
 * Email rows are locked FOR UPDATE in id order, so concurrent batches cannot deadlock, and the
 * statement-level triggers see every earlier event of a locked email (first-of-its-kind counts).
 */
export async function recordEmailEvents(
  db: Kysely<Database> | Transaction<Database>,
  events: readonly EmailEventInput[],
): Promise<RecordedEvent[]> {
  if (events.length === 0) return [];
  const seen = new Set<string>();
  for (const e of events) {
    if (seen.has(e.emailId)) throw new Error(`recordEmailEvents: email ${e.emailId} appears twice in one call`);
    seen.add(e.emailId);
  }
  const unread = events.filter((e) => e.email === undefined).map((e) => e.emailId);
  const read = new Map((await readEmailsOfEvents(db, unread)).map((m) => [m.id, m]));
  const input = events.map((e, n) => {
    // Another team's email makes no event (the statement finds none), so it needs no payload.
    const email = e.email ?? read.get(e.emailId);
    const call = email?.team_id === e.teamId ? emailEventCall(email, e.status, e.data, e.at) : {};
    return {
      ...call,
      n,
      team_id: e.teamId,
      email_id: e.emailId,
      status: e.status,
      data: e.data ?? null,
      at: e.at.toISOString(),
      replaceable: replaceableByEvent(e.status),
    };
  });
  const rows = await insertEventsAndMoveStatuses(db, input);
  return rows.map((row) => (row.found ? { found: true, status: row.status } : { found: false, status: null }));
}

export async function recordEmailEvent(
  db: Kysely<Database> | Transaction<Database>,
  teamId: number,
  emailId: string,
  status: EmailStatus,
  data: unknown,
  now: Date,
): Promise<RecordedEvent> {
  const [recorded] = await recordEmailEvents(db, [{ teamId, emailId, status, data, at: now }]);
  return recorded!;
}

/**
 * An event written alone in the caller's transaction (a reschedule, a cancel, a delivery the queue
 * gave up on), its email's status set by the caller: the event and its webhook calls (recordEvent).
 */
export async function recordEmailEventOf(
  tx: Transaction<Database>,
  email: EmailOfEvent,
  status: EmailStatus,
  data: unknown,
  at: Date,
): Promise<void> {
  await insertEmailEvent(tx, email.team_id, email.id, status, data, at);
  const payload = emailEventView(email, status, data);
  await recordEvent(tx, {
    teamId: email.team_id,
    type: emailEventType(status),
    domainId: email.domain_id,
    data: payload,
    at,
  });
}
