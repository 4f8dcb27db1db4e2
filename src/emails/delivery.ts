// The delivery worker: the email row is the job (status QUEUED or SCHEDULED, due at run_at). Each
// claimed email is built from what was stored (already rendered), DKIM-signed with its domain's key,
// and handed to the mail transport with a per-email return path; what each recipient's server said
// becomes the email's status and events, written together while the lease is still ours.
//
// Retries: a temporary answer (4xx, connection or DNS trouble) comes back through the queue's retry
// with backoff of 5 min doubling to a 4 h cap. DELIVERY_MAX_ATTEMPTS = 18 attempts add up to about
// 49 h (5+10+20+40+80+160 min, then 11 × 4 h, each ±20%); a recipient still deferred at the last
// attempt, or 48 h after the email was due, is BOUNCED. A message handed back because its
// destination is backed off waits for the destination, and that wait is not an attempt. While
// retrying the email keeps status QUEUED (the claim and its index cover QUEUED and SCHEDULED) and
// reads DELIVERY_DELAYED (delivery_delayed); each attempt's deferral is a DELIVERY_DELAYED event.
import type { MailTransport, RecipientOutcome } from '../adapters/mail-transport/index.ts';
import { retryAtAfter } from '../db/retry.ts';
import type { Secrets } from '../platform/crypto.ts';
import { errorMessage } from '../queue/define-queue.ts';
import {
  defineQueue,
  retryDelayMs,
  underLease,
  type BatchContext,
  type JobOutcome,
  type Queue,
} from '../queue/index.ts';
import { signedCopies } from './delivery-copies.ts';
import { messageIdOf } from './delivery-message.ts';
import { domainKey, fromDomainOf, progressFor, readBatchData, type BatchData } from './delivery-batch.ts';
import { CLEAR_LAST_ERROR, DELIVERABLE, DELIVERABLE_BULK_MAIL, KEEP_JOB_ERROR } from './delivery-queries.ts';
import { failDeliveries, recordAttempt, type AttemptRecord, type DeliveryBounces } from './delivery-write.ts';
import { LanePriority, type Lane } from './lane-priority.ts';
import { MimeHeaderError } from './mime.ts';
import type { EmailRow } from './queries.ts';
import { distinctRecipients } from './recipients.ts';
import { returnPathAddress } from './return-path.ts';
import { BULK_DELIVERY_QUEUE, EMAIL_DELIVERY_QUEUE } from './queue-emails.ts';
import { destinationRetryAt, finalStatus, outcomeData, verdictData } from './delivery-outcomes.ts';
import { complainsAfterDelivery, isSimulated, sendOrSimulate, simulatedKind } from './simulator.ts';

const MINUTE = 60_000;
export const DELIVERY_MAX_ATTEMPTS = 18;
/** A recipient still deferred this long after the email was due bounces, however many attempts it had. */
export const DELIVERY_HORIZON_MS = 48 * 60 * MINUTE;
/** How long a killed worker's emails stay held; a live worker renews every DELIVERY_LEASE_RENEW_MS. */
export const DELIVERY_LEASE_MS = 20_000;
const DELIVERY_LEASE_RENEW_MS = 5_000;
/** Direct delivery's window: 16 batches of 25 in hand (bench/RESULTS.md, direct delivery). */
const DIRECT_BATCH = 25;
const DIRECT_CONCURRENCY = 16;
export const DELIVERY_BACKOFF = { baseMs: 5 * MINUTE, maxMs: 240 * MINUTE, jitter: 'proportional' as const };

export interface DeliveryDeps {
  secrets: Secrets;
  /** HERALD_PUBLIC_URL: the base of the unsubscribe links in MARKETING mail. */
  publicUrl: string;
  transport: MailTransport;
  /** HERALD_MAIL_DOMAIN: the right-hand side of Message-IDs. */
  mailDomain: string;
  /** What a refusal during the session means, and the suppression of hard bounces (feedback's sessionBounces). */
  bounces: DeliveryBounces;
}

type Event = AttemptRecord['events'][number];

async function deliverOne(
  deps: DeliveryDeps,
  email: EmailRow,
  ctx: BatchContext,
  data: BatchData,
): Promise<JobOutcome> {
  const { db } = ctx;
  const now = ctx.clock.now();
  const done: JobOutcome = { id: email.id, outcome: 'done' };
  const recordAt = async (at: Date, r: AttemptRecord) => {
    // With the lease the rows carry now: it is renewed while the batch works.
    if (!(await underLease(ctx, (leaseUntil) => recordAttempt(db, email, leaseUntil, at, r, deps.bounces))))
      ctx.logger.debug({ emailId: email.id }, 'delivery result dropped: lease lost or email no longer queued');
  };
  const record = (r: AttemptRecord) => recordAt(now, r);
  const fail = (reason: string) =>
    record({ status: 'FAILED', messageId: null, events: [{ status: 'FAILED', data: { reason } }] });

  const fromDomain = fromDomainOf(email);
  const domain = fromDomain === null ? null : (data.domains.get(domainKey(email.team_id, fromDomain)) ?? null);
  if (domain === null) {
    await fail(`The sending domain of ${email.from} is no longer a verified domain of this team`);
    return done;
  }

  const progress = progressFor(data, email.id);
  const recipients = distinctRecipients([email.to, email.cc, email.bcc]);
  // Re-read at send time: an address suppressed since the email was queued is not sent to.
  const onList = recipients.filter(
    (r) => data.suppressed.has(domainKey(email.team_id, r)) || simulatedKind(r) === 'suppressed',
  );
  // Whoever unsubscribed from the team's marketing since the email was queued gets no MARKETING mail.
  const unsubscribed =
    email.type === 'MARKETING'
      ? recipients.filter((r) => data.unsubscribed.has(domainKey(email.team_id, r)) && !onList.includes(r))
      : [];
  const suppressed = new Set([...onList, ...unsubscribed]);
  const events: Event[] = [];
  const newlySuppressed = onList.filter((r) => !progress.suppressed.has(r));
  if (newlySuppressed.length > 0) events.push({ status: 'SUPPRESSED', data: { recipients: newlySuppressed } });
  const newlyUnsubscribed = unsubscribed.filter((r) => !progress.suppressed.has(r));
  if (newlyUnsubscribed.length > 0)
    events.push({ status: 'SUPPRESSED', data: { recipients: newlyUnsubscribed, reason: 'unsubscribed' } });
  const pending = recipients.filter((r) => !suppressed.has(r) && !progress.accepted.has(r) && !progress.bounced.has(r));
  const messageId = email.message_id ?? messageIdOf(email.id, deps.mailDomain);
  if (pending.length === 0) {
    const status = finalStatus(deps.transport, [...progress.accepted], progress.bounced.size > 0);
    await record({
      status,
      messageId: null,
      events: status === 'SUPPRESSED' || status === 'BOUNCED' ? events : [...events, { status, data: null }],
    });
    return done;
  }

  // Every recipient's destination is paused: back to the queue before the message is built.
  const handedBack = pending.some(isSimulated) ? null : ((await deps.transport.handBack?.(pending)) ?? null);
  let result: { recipients: RecipientOutcome[] };
  if (handedBack !== null) result = { recipients: handedBack };
  else {
    let built: { to: string[]; raw: Buffer }[];
    try {
      built = await signedCopies(deps, email, domain, messageId, now, data, pending);
    } catch (error) {
      // A header the API let through but MIME refuses cannot get better by waiting.
      if (error instanceof MimeHeaderError) {
        await fail(error.message);
        return done;
      }
      throw error;
    }
    const from = returnPathAddress(email.id, domain.returnPath, deps.secrets);
    const sent = await Promise.all(
      built.map(({ to, raw }) => sendOrSimulate(deps.transport, { from, to }, raw, email.attempts)),
    );
    result = { recipients: sent.flatMap((r) => r.recipients) };
  }
  // The receiver's answer is the moment of DELIVERED (or of the deferral), not the attempt's start.
  const answeredAt = ctx.clock.now();

  const accepted = result.recipients.filter((o) => o.status === 'accepted');
  const permanent = result.recipients.filter((o) => o.status === 'permanent');
  const temporary = result.recipients.filter((o) => o.status === 'temporary');
  // Classified as a DSN would be: a hard bounce suppresses the address, a soft one (a full mailbox,
  // a policy refusal) ends only this message.
  const hardBounced: string[] = [];
  for (const o of permanent) {
    const verdict = deps.bounces.classify(o.response);
    // The simulator's bounces never reach the team's suppression list.
    if (verdict.bounceType === 'hard' && !isSimulated(o.recipient)) hardBounced.push(o.recipient);
    events.push({ status: 'BOUNCED', data: { ...outcomeData(o), ...verdictData(verdict) } });
  }

  if (temporary.length > 0 && !outOfTime(email, answeredAt)) {
    // A backed-off destination is nobody's fault of this message: the wait does not count as an attempt.
    const waitsForDestination =
      accepted.length === 0 && permanent.length === 0 && temporary.every((o) => o.destinationPausedUntil !== undefined);
    const retryAt = waitsForDestination
      ? destinationRetryAt(temporary, answeredAt)
      : new Date(answeredAt.getTime() + retryDelayMs(email.attempts, DELIVERY_BACKOFF));
    // Each attempt that reached a server is an event; a message that only waited says so once.
    const attempted = temporary.some((o) => o.notAttempted === undefined);
    if (attempted || !progress.delayed || accepted.length > 0 || permanent.length > 0) {
      const first = temporary.find((o) => o.notAttempted === undefined) ?? temporary[0]!;
      const status = deps.bounces.classify(first.response).status;
      events.push({
        status: 'DELIVERY_DELAYED',
        data: {
          ...outcomeData(first),
          ...(status === null ? {} : { status }),
          recipients: temporary.map((o) => o.recipient),
          // Remembered so that the retry does not send to them again.
          accepted: accepted.map((o) => o.recipient),
          attempt: email.attempts - (waitsForDestination ? 1 : 0),
          nextAttemptAt: retryAt.toISOString(),
        },
      });
    }
    await recordAt(answeredAt, {
      status: null,
      messageId,
      events,
      hardBounced,
      delayed: true,
      uncounted: waitsForDestination,
    });
    return { id: email.id, outcome: 'retry', error: `deferred: ${temporary[0]!.response}`, retryAt };
  }
  // Out of time (about 48 h of retries): whoever is still deferred bounces.
  for (const o of temporary)
    events.push({
      status: 'BOUNCED',
      data: { ...outcomeData(o), bounceType: 'soft', reason: 'still deferred after 48 hours of retries' },
    });
  const status = finalStatus(
    deps.transport,
    [...accepted.map((o) => o.recipient), ...progress.accepted],
    permanent.length + temporary.length > 0 || progress.bounced.size > 0,
  );
  if (status !== 'BOUNCED') events.push({ status, data: null });
  // complained@ reports a complaint as soon as it accepts (never suppressed: see above).
  const complaints = accepted.filter((o) => complainsAfterDelivery(o.recipient));
  for (const o of complaints)
    events.push({
      status: 'COMPLAINED',
      data: {
        recipient: o.recipient,
        feedbackType: 'abuse',
        reason: 'simulated: the recipient marked the message as spam',
      },
    });
  await recordAt(answeredAt, { status: complaints.length > 0 ? 'COMPLAINED' : status, messageId, events, hardBounced });
  return done;
}

/** Out of attempts, or deferred for longer than the retry horizon (waits for a destination do not count as attempts). */
function outOfTime(email: EmailRow, now: Date): boolean {
  const since = (email.scheduled_at ?? email.created_at).getTime();
  return email.attempts >= DELIVERY_MAX_ATTEMPTS || now.getTime() - since >= DELIVERY_HORIZON_MS;
}

/** Delivery of transactional mail (every email but campaigns' and journeys'). */
export function emailDeliveryQueue(deps: DeliveryDeps, priority = new LanePriority()): Queue {
  return deliveryLane(deps, EMAIL_DELIVERY_QUEUE, DELIVERABLE, { kind: 'urgent', priority });
}

/** Delivery of campaign and journey mail: the same work, claimed apart so that it never holds transactional mail back. */
export function bulkDeliveryQueue(deps: DeliveryDeps, priority = new LanePriority()): Queue {
  return deliveryLane(deps, BULK_DELIVERY_QUEUE, DELIVERABLE_BULK_MAIL, { kind: 'bulk', priority });
}

/** Both lanes, as a worker runs them: bulk mail through `bulkTransport` when it has one of its own. */
export function emailDeliveryLanes(deps: DeliveryDeps, bulkTransport: MailTransport = deps.transport): Queue[] {
  const priority = new LanePriority();
  return [emailDeliveryQueue(deps, priority), bulkDeliveryQueue({ ...deps, transport: bulkTransport }, priority)];
}

function deliveryLane(deps: DeliveryDeps, name: string, readyWhere: typeof DELIVERABLE, lane: Lane): Queue {
  return defineQueue<EmailRow>({
    name,
    table: 'emails',
    idType: 'text',
    dueColumn: 'run_at',
    leaseColumn: 'lease_until',
    attemptsColumn: 'attempts',
    readyWhere,
    // Direct delivery keeps more emails in hand: its messages wait on their destinations' sessions,
    // and a window wider than one destination's sessions keeps the others busy meanwhile.
    batchSize: deps.transport.kind === 'direct' ? DIRECT_BATCH : 20,
    // Two batches in flight: the next batch is claimed and read while this one's messages go out,
    // so the transport's pool does not wait on those round trips between batches.
    concurrency: deps.transport.kind === 'direct' ? DIRECT_CONCURRENCY : 2,
    // Seconds, renewed while the batch works: one-time codes go through this queue, and a killed
    // worker's emails must come back well inside a code's expiry (10 minutes by default), while a slow
    // delivery (direct delivery may try several MX hosts, each with its timeouts) keeps its emails
    // for as long as it is alive, so that nobody sends them a second time meanwhile.
    leaseMs: DELIVERY_LEASE_MS,
    leaseRenewMs: DELIVERY_LEASE_RENEW_MS,
    maxAttempts: DELIVERY_MAX_ATTEMPTS,
    backoff: DELIVERY_BACKOFF,
    // The emails of a batch go out side by side; each one's result is written on its own.
    handleBatch: async (rows, ctx) => {
      const data = await readBatchData(ctx.db, deps.secrets, deps.mailDomain, rows);
      const attempt = (row: EmailRow) =>
        deliverOne(deps, row, ctx, data).catch((error: unknown): JobOutcome => {
          ctx.logger.warn({ emailId: row.id, err: error }, 'email delivery attempt failed; retrying');
          return {
            id: row.id,
            outcome: 'retry',
            error: errorMessage(error),
            retryAt: retryAtAfter(error, ctx.clock.now()),
          };
        });
      if (lane.kind === 'urgent') return lane.priority.urgent(() => Promise.all(rows.map(attempt)));
      // Bulk mail one message at a time, each after transactional batches and the I/O waiting: better
      // for both lanes than several at once (bench/RESULTS.md, campaigns).
      const outcomes: JobOutcome[] = [];
      for (const row of rows) {
        await lane.priority.clear();
        await new Promise((resolve) => setImmediate(resolve));
        outcomes.push(await attempt(row));
      }
      return outcomes;
    },
    // Status and events were written by the handler; the finalisers release the lease.
    onDone: CLEAR_LAST_ERROR,
    onRetry: KEEP_JOB_ERROR,
    onFailed: async (items, ctx) => {
      await failDeliveries(
        ctx.db,
        items.map((item) => ({ email: item.row, error: item.error ?? 'delivery failed' })),
        ctx.leaseUntil,
        ctx.clock.now(),
      );
    },
  });
}
