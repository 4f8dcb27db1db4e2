// The sms-delivery queue: a `queued` message whose row in sms_deliveries is due goes to the provider
// (HERALD_SMS_PROVIDER). Accepted: `sent`. Refused before hand-off: `rejected`, charge released.
// Network errors and 5xx: retried with backoff (the charge was taken once, at queueing); when the
// attempts run out the message is `rejected` and released. A message the provider may have (a claim
// that vanished mid-send, a call unanswered by the deadline) is never sent again blindly: it is
// reconciled with the provider (reconcile.ts). A batch's provider calls run at once; their outcomes
// are written together, and reports that came before their ids are applied right after.
import { sql } from 'kysely';
import type { SmsProvider } from '../adapters/sms-provider/index.ts';
import {
  defineQueue,
  errorMessage,
  underLease,
  type BatchContext,
  type FinaliseItem,
  type JobOutcome,
  type Queue,
} from '../queue/index.ts';
import { applyLeasedSmsChanges, type SmsChange } from './outcomes.ts';
import type { SmsRow } from './queries.ts';
import { retryDeliveries } from './delivery-queries.ts';
import { leftSent, reconcile, releaseMatched, type Attempt, type MatchedProviderIds } from './reconcile.ts';
import { applyMatchedPendingReports } from './reports.ts';
import { SMS_DELIVERY_QUEUE } from './send.ts';

export { SMS_DELIVERY_QUEUE };

const MINUTE = 60_000;

export interface SmsDeliveryDeps {
  provider: SmsProvider;
  /** How long a batch's provider calls may take in all; CALLS_DEADLINE_MS unless a test says. */
  callsDeadlineMs?: number;
}

/**
 * A batch's calls share the adapter's connections to the provider, so a call may wait for others
 * before its own timeout starts. Whatever is still unanswered after this is left for a retry.
 */
const CALLS_DEADLINE_MS = MINUTE;
/**
 * One-time codes go through this queue: a killed worker's messages come back within seconds, while
 * a live one renews its lease every few seconds for as long as its calls take (src/queue/README.md).
 */
const LEASE_MS = 20_000;
const LEASE_RENEW_MS = 5_000;

const unreachable = {
  code: 'unreachable',
  message: 'The SMS provider could not be reached; the message was not sent and the charge was returned',
};

/** A claimed queue row with what sending needs, copied from its message (the claim returns no more). */
type SmsJob = Pick<SmsRow, 'team_id' | 'charge_transaction_id' | 'to_number' | 'sender_id' | 'body'> & {
  sms_id: string;
  attempts: number;
  recorded_attempts: number;
  /** As claimed: the last retry's hand-off was unconfirmed (0012_sms.sql). */
  handed_off: boolean;
  /** Set by this batch when its attempt retries unconfirmed: the retry writes it as handed_off. */
  handingOff?: true;
};

/** Writes the outcomes of messages still queued under our lease, with their events, in one transaction. */
async function record(ctx: BatchContext, jobs: readonly { row: SmsJob; changes: SmsChange[] }[]): Promise<void> {
  const items = jobs.map((job) => ({ id: job.row.sms_id, changes: job.changes }));
  await applyLeasedSmsChanges(ctx.db, ctx.leaseUntil, items, ctx.clock.now());
}

/**
 * The provider may have this message: an earlier claim vanished (attempts ran ahead of the recorded
 * ones) or its last retry was handed off unconfirmed (a call without an answer, an outcome not written).
 */
const unconfirmed = (row: SmsJob) => row.handed_off || row.attempts - 1 > row.recorded_attempts;

async function attempt(deps: SmsDeliveryDeps, row: SmsJob, signal: AbortSignal): Promise<Attempt> {
  const provider = deps.provider;
  let outcome;
  try {
    outcome = await provider.send({ id: row.sms_id, to: row.to_number, from: row.sender_id, text: row.body }, signal);
  } catch (error) {
    return { retry: errorMessage(error) };
  }
  if (outcome.kind === 'retry')
    return outcome.unconfirmed ? { retry: outcome.error, handedOff: true } : { retry: outcome.error };
  if (outcome.kind === 'rejected')
    return { changes: [{ status: 'rejected', reason: outcome.reason }], mayBeAtProvider: true };
  const changes: SmsChange[] = [
    { status: 'sent', provider: provider.kind, providerMessageId: outcome.providerMessageId, reason: null },
    // A provider that never reports (log) delivers at once.
    ...(provider.deliveryReports === 'none' ? [{ status: 'delivered' } as const] : []),
  ];
  return { changes, mayBeAtProvider: true };
}

/**
 * Every message's attempt: the unconfirmed ones reconciled first (sent only where the provider says
 * it has no such message), then the calls at once; those unanswered after the batch's deadline come
 * back as retries.
 */
async function attemptAll(
  deps: SmsDeliveryDeps,
  rows: SmsJob[],
  db: BatchContext['db'],
  matched: MatchedProviderIds,
): Promise<Attempt[]> {
  const deadlineMs = deps.callsDeadlineMs ?? CALLS_DEADLINE_MS;
  const deadline = new AbortController();
  const timer = setTimeout(
    () => deadline.abort(new Error(`no answer within ${deadlineMs / 1000} s of the batch's start`)),
    deadlineMs,
  );
  try {
    const reconciled = await reconcile(deps.provider, db, rows.filter(unconfirmed), deadline.signal, matched);
    return await Promise.all(
      rows.map((row) => {
        const known = reconciled.get(row.sms_id);
        return known === undefined || known === 'absent' ? attempt(deps, row, deadline.signal) : known;
      }),
    );
  } finally {
    clearTimeout(timer);
  }
}

async function deliverBatch(
  deps: SmsDeliveryDeps,
  rows: SmsJob[],
  ctx: BatchContext,
  matched: MatchedProviderIds,
): Promise<JobOutcome[]> {
  const attempts = await attemptAll(deps, rows, ctx.db, matched);
  const toWrite = rows.flatMap((row, i) => {
    const a = attempts[i]!;
    return 'changes' in a ? [{ row, changes: a.changes }] : [];
  });
  let writeError: string | null = null;
  try {
    // record() matches on ctx.leaseUntil: never while a renewal moves it.
    await underLease(ctx, () => record(ctx, toWrite));
  } catch (error) {
    writeError = errorMessage(error);
  } finally {
    releaseMatched(matched, attempts);
  }
  if (writeError === null && deps.provider.deliveryReports === 'reports' && toWrite.length > 0) {
    // Reports that came before this batch's ids were recorded; the outcomes stand whatever happens here.
    await applyMatchedPendingReports(ctx.db, deps.provider.kind, ctx.clock.now()).catch((error: unknown) =>
      ctx.logger.warn({ error: errorMessage(error) }, 'sms: early delivery reports not applied yet'),
    );
  }
  return rows.map((row, i): JobOutcome => {
    const a = attempts[i]!;
    // The provider may have the message: the next claim reconciles it instead of sending it again.
    if ('retry' in a ? a.handedOff === true : writeError !== null && a.mayBeAtProvider) row.handingOff = true;
    if ('retry' in a) return { id: row.sms_id, outcome: 'retry', error: a.retry };
    if (writeError === null) return { id: row.sms_id, outcome: 'done' };
    return { id: row.sms_id, outcome: 'retry', error: writeError };
  });
}

export function smsDeliveryQueue(deps: SmsDeliveryDeps): Queue {
  const matched: MatchedProviderIds = new Set();
  return defineQueue<SmsJob>({
    name: SMS_DELIVERY_QUEUE,
    table: 'sms_deliveries',
    idColumn: 'sms_id',
    idType: 'text',
    dueColumn: 'next_attempt_at',
    // The queue row carries what sending needs (0012_sms.sql): the claim reads no message.
    claimReturning: sql`sms_id, team_id, attempts, recorded_attempts, handed_off, charge_transaction_id, to_number, sender_id, body`,
    // Large batches spread each claim's and outcome's fixed cost over more messages. Under a backlog
    // three full batches at once, so that while one batch's outcomes are written and the next is
    // claimed, two keep the provider calls going; each more would make every claim walk past its
    // rows. A trickle gets four slots, so a message seldom waits for a slow provider to answer
    // others (bench/RESULTS.md, "SMS delivery").
    batchSize: 500,
    concurrency: 4,
    fullBatches: 3,
    // Seconds, renewed while the batch works (its calls are bounded by CALLS_DEADLINE_MS).
    leaseMs: LEASE_MS,
    leaseRenewMs: LEASE_RENEW_MS,
    maxAttempts: 6,
    backoff: { baseMs: 5_000, maxMs: 10 * MINUTE },
    handleBatch: (rows, ctx) => deliverBatch(deps, rows, ctx, matched),
    // Each batch wrote its outcomes under its lease; nothing left to finalise.
    onDone: async () => {},
    // A retry after an unconfirmed hand-off is marked so: the next claim reconciles it.
    onRetry: (items, ctx) =>
      retryDeliveries(
        ctx.db,
        ctx.leaseUntil,
        items.map((item) => ({
          id: item.id as string,
          retryAt: item.retryAt!,
          error: item.error ?? '',
          handedOff: item.row.handingOff === true,
        })),
      ),
    onFailed: (items, ctx) => giveUp(deps, items, ctx, matched),
  });
}

/**
 * Attempts used up: rejected and released, unless the provider may have the message. Then it is
 * reconciled once more: found, recorded as the provider says; absent, rejected; not known (no
 * lookup, or the lookup failed), left `sent` with its charge for the provider's report to decide.
 */
async function giveUp(
  deps: SmsDeliveryDeps,
  items: FinaliseItem<SmsJob>[],
  ctx: BatchContext,
  matched: MatchedProviderIds,
): Promise<void> {
  for (const item of items) ctx.logger.warn({ smsId: item.row.sms_id, error: item.error }, 'sms delivery gave up');
  const doubtful = items.filter((item) => unconfirmed(item.row) || item.row.handingOff === true);
  const reconciled = await reconcile(
    deps.provider,
    ctx.db,
    doubtful.map((item) => item.row),
    AbortSignal.timeout(deps.callsDeadlineMs ?? CALLS_DEADLINE_MS),
    matched,
  );
  try {
    await record(
      ctx,
      items.map((item) => {
        const known = reconciled.get(item.row.sms_id);
        if (known === undefined || known === 'absent')
          return { row: item.row, changes: [{ status: 'rejected', reason: unreachable }] };
        return {
          row: item.row,
          changes: 'changes' in known ? known.changes : [leftSent(deps.provider.kind, item.row)],
        };
      }),
    );
  } finally {
    releaseMatched(matched, [...reconciled.values()]);
  }
  if (deps.provider.deliveryReports === 'reports' && doubtful.length > 0)
    await applyMatchedPendingReports(ctx.db, deps.provider.kind, ctx.clock.now());
}
