// The sms-delivery queue: a `queued` message whose next_attempt_at is due goes to the provider
// (HERALD_SMS_PROVIDER). Accepted: `sent`. Refused before hand-off: `rejected`, charge released.
// Network errors and 5xx: retried with backoff (the charge was taken once, at queueing); when the
// attempts run out the message is `rejected` and released. A claim that vanished without an outcome
// (a worker killed mid-send) is never sent again: it is rejected and released.
import { sql } from 'kysely';
import type { SmsProvider } from '../adapters/sms-provider/index.ts';
import { defineQueue, errorMessage, type BatchContext, type Queue } from '../queue/index.ts';
import { applySmsChange, type SmsChange } from './outcomes.ts';
import { getLeasedSmsForUpdate, type SmsRow } from './queries.ts';
import { SMS_DELIVERY_QUEUE } from './send.ts';

export { SMS_DELIVERY_QUEUE };

const MINUTE = 60_000;
/** Marks a retry whose provider call went through but whose outcome could not be written. */
const HANDED_OFF = 'handed off, outcome not written: ';

export interface SmsDeliveryDeps {
  provider: SmsProvider;
}

const unreachable = {
  code: 'unreachable',
  message: 'The SMS provider could not be reached; the message was not sent and the charge was returned',
};
const interrupted = {
  code: 'unknown',
  message:
    'Sending was interrupted and the provider cannot confirm the message; it was not sent again and the charge was returned',
};

/** Records an outcome if the row is still queued under our lease (another worker may have taken it over). */
async function record(ctx: BatchContext, row: SmsRow, changes: SmsChange[]): Promise<void> {
  await ctx.db.transaction().execute(async (tx) => {
    let current = await getLeasedSmsForUpdate(tx, row.id, ctx.leaseUntil);
    for (const change of changes) {
      if (current === undefined) return;
      current = (await applySmsChange(tx, current, change, ctx.clock.now())) ?? current;
    }
  });
}

async function deliver(deps: SmsDeliveryDeps, row: SmsRow, ctx: BatchContext): Promise<void> {
  // No provider can be asked whether it already has our message: a claim that vanished mid-send is
  // not sent again (the provider may have it); it is rejected and the charge returned instead.
  if (row.attempts - 1 > row.recorded_attempts) return record(ctx, row, [{ status: 'rejected', reason: interrupted }]);
  const provider = deps.provider;
  const outcome = await provider.send({ id: row.id, to: row.to_number, from: row.sender_id, text: row.body });
  if (outcome.kind === 'retry') throw new Error(outcome.error);
  const changes: SmsChange[] =
    outcome.kind === 'rejected'
      ? [{ status: 'rejected', reason: outcome.reason }]
      : [
          { status: 'sent', provider: provider.kind, providerMessageId: outcome.providerMessageId, reason: null },
          // A provider that never reports (log) delivers at once.
          ...(provider.deliveryReports === 'none' ? [{ status: 'delivered' } as const] : []),
        ];
  try {
    await record(ctx, row, changes);
  } catch (error) {
    // The provider has the message: the next claim must treat this one as vanished, not as a clean retry.
    throw new Error(`${HANDED_OFF}${errorMessage(error)}`, { cause: error });
  }
}

export function smsDeliveryQueue(deps: SmsDeliveryDeps): Queue {
  return defineQueue<SmsRow>({
    name: SMS_DELIVERY_QUEUE,
    table: 'sms_messages',
    idType: 'text',
    dueColumn: 'next_attempt_at',
    leaseColumn: 'lease_until',
    attemptsColumn: 'attempts',
    readyWhere: sql`status = 'queued'`,
    batchSize: 50,
    concurrency: 2,
    // Provider calls are bounded by the adapter's timeout, well under the lease.
    leaseMs: 2 * MINUTE,
    maxAttempts: 6,
    backoff: { baseMs: 5_000, maxMs: 10 * MINUTE },
    handleRow: (row, ctx) => deliver(deps, row, ctx),
    // Each row wrote its own outcome under its lease; nothing left to finalise.
    onDone: async () => {},
    onRetry: sql`recorded_attempts = recorded_attempts + (CASE WHEN starts_with(job_error, ${HANDED_OFF}) THEN 0 ELSE 1 END), last_error = job_error`,
    onFailed: async (items, ctx) => {
      for (const item of items) {
        ctx.logger.warn({ smsId: item.row.id, error: item.error }, 'sms delivery gave up');
        await record(ctx, item.row, [{ status: 'rejected', reason: unreachable }]);
      }
    },
  });
}
