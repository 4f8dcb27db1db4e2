// The inbound-messages queue: the spooled row is the job (spool.ts writes it before the 250). The
// listener that spooled a message normally acts on it itself, at once (spool-processor.ts); a row
// becomes due here only SPOOL_HANDOFF_MS after it was received, so this queue takes what a listener
// did not finish: its process died, its backlog was full, or the message failed there. A batch is
// recorded through recordSpooled and its rows are deleted in that transaction, under this queue's
// lease: a message is acted on exactly once, and a worker that dies mid-batch leaves its rows to be
// claimed again when their lease runs out. The listener accepts bounce return paths (bounces and
// complaints) and team inboxes' addresses; both are recorded by recordSpooled.
import { sql } from 'kysely';
import type { Registry } from 'prom-client';
import { countFeedback, feedbackCounter, type FeedbackOutcome } from '../feedback/index.ts';
import {
  defineQueue,
  errorMessage,
  type BatchContext,
  type JobId,
  type JobOutcome,
  type Queue,
} from '../queue/index.ts';
import { markSpooledFailed } from './spool-queries.ts';
import { recordSpooled, SpoolRowsTakenError, tallyOutcomes, type RecordSpooledDeps } from './record-spooled.ts';

export const INBOUND_QUEUE = 'inbound-messages';

const MINUTE = 60_000;

interface InboundQueueDeps extends RecordSpooledDeps {
  metrics: Registry;
}

interface SpooledRow {
  id: JobId;
  mail_from: string;
  rcpt_to: string[];
  /** A Buffer from pg, a plain Uint8Array from PGlite. */
  raw: Uint8Array;
  remote_address: string;
  received_at: Date;
}

export function inboundMessagesQueue(deps: InboundQueueDeps): Queue {
  const counter = feedbackCounter(deps.metrics);
  return defineQueue<SpooledRow>({
    name: INBOUND_QUEUE,
    table: 'inbound_messages',
    idType: 'bigint',
    dueColumn: 'due_at',
    leaseColumn: 'lease_until',
    attemptsColumn: 'attempts',
    readyWhere: sql`failed_at IS NULL`,
    // Large batches: a backlog costs one read of its emails and one transaction per 200 messages.
    batchSize: 200,
    // A steady trickle is taken every 25 ms rather than one transaction per message.
    gatherMs: 25,
    leaseMs: 2 * MINUTE,
    maxAttempts: 5,
    backoff: { baseMs: 30_000, maxMs: 30 * MINUTE },
    // In arrival order (the spool's id): the claim returns rows in no particular order, and the
    // reports on one email must apply in the order they came (status precedence depends on it).
    handleBatch: (rows, ctx) =>
      processMessages(deps, rows.sort(byArrival), ctx, (outcome) => countFeedback(counter, outcome)),
    // Finished rows were deleted by the transaction that recorded them (processMessages).
    onDone: async () => {},
    onRetry: sql`last_error = job.job_error`,
    // Kept, not deleted: a message no attempt could take is for an operator to look at.
    onFailed: async (items, ctx) => {
      const failed = items.map((item) => ({ id: String(item.id), error: item.error }));
      await markSpooledFailed(ctx.db, failed, { kind: 'queue', leaseUntil: ctx.leaseUntil }, ctx.clock.now());
      ctx.logger.error(
        { queue: INBOUND_QUEUE, ids: items.map((item) => String(item.id)), errors: items.map((item) => item.error) },
        'inbound messages failed for good',
      );
    },
  });
}

const byArrival = (a: SpooledRow, b: SpooledRow) => {
  const [x, y] = [BigInt(String(a.id)), BigInt(String(b.id))];
  return x < y ? -1 : x > y ? 1 : 0;
};

/** The whole batch in one transaction; if that fails, each message alone, so that one bad message fails alone. */
async function processMessages(
  deps: RecordSpooledDeps,
  rows: SpooledRow[],
  ctx: BatchContext,
  count: (outcome: FeedbackOutcome) => void,
): Promise<JobOutcome[]> {
  try {
    const messages = rows.map((row) => ({
      id: String(row.id),
      mailFrom: row.mail_from,
      rcptTo: row.rcpt_to,
      raw: Buffer.from(row.raw.buffer, row.raw.byteOffset, row.raw.byteLength),
      remoteAddress: row.remote_address,
      receivedAt: row.received_at,
    }));
    const recorded = await recordSpooled(deps, messages, { kind: 'queue', leaseUntil: ctx.leaseUntil });
    recorded.feedback.forEach(count);
    ctx.logger.info(
      { queue: INBOUND_QUEUE, messages: rows.length, ...tallyOutcomes(recorded) },
      'inbound messages processed',
    );
    // An unreadable message is the only one of its batch not done: kept as failed (the recording
    // transaction marked it), or retried when its parse ran out of time.
    const unreadable = new Map(recorded.unreadable.map((u) => [u.id, u]));
    return rows.map((row): JobOutcome => {
      const left = unreadable.get(String(row.id));
      if (left === undefined) return { id: row.id, outcome: 'done' };
      return { id: row.id, outcome: left.permanent ? 'failed' : 'retry', error: `unreadable: ${left.error}` };
    });
  } catch (error) {
    if (rows.length === 1 || error instanceof SpoolRowsTakenError) {
      return rows.map((row) => ({ id: row.id, outcome: 'retry', error: errorMessage(error) }));
    }
    ctx.logger.warn(
      { queue: INBOUND_QUEUE, messages: rows.length, err: error },
      'inbound batch failed; processing its messages one by one',
    );
    const outcomes: JobOutcome[] = [];
    for (const row of rows) {
      // Past the handler's deadline the runner has given the batch up: the rest wait for their retry.
      if (ctx.signal.aborted) outcomes.push({ id: row.id, outcome: 'retry', error: 'handler deadline passed' });
      else outcomes.push(...(await processMessages(deps, [row], ctx, count)));
    }
    return outcomes;
  }
}
