// The inbound-messages queue: the spooled row is the job (spool.ts writes it before the 250). A
// batch is parsed, matched and recorded through applyFeedbackBatch, and its rows are deleted in the
// transaction that recorded them: a message is acted on exactly once, and a worker that dies
// mid-batch leaves its rows to be claimed again when their lease runs out. Bounces and complaints are
// all the listener accepts today (its recipients are return paths); team inboxes will be routed here.
import { sql, type Transaction } from 'kysely';
import type { Registry } from 'prom-client';
import type { Database } from '../db/schema.ts';
import { applyFeedbackBatch, countFeedback, feedbackCounter, type FeedbackDeps, type FeedbackOutcome } from '../feedback/index.ts';
import { defineQueue, errorMessage, type BatchContext, type JobId, type JobOutcome, type Queue } from '../queue/index.ts';

export const INBOUND_QUEUE = 'inbound-messages';

const MINUTE = 60_000;

export interface InboundQueueDeps extends FeedbackDeps {
  metrics: Registry;
}

interface SpooledRow {
  id: JobId;
  mail_from: string;
  rcpt_to: string[];
  /** A Buffer from pg, a plain Uint8Array from PGlite. */
  raw: Uint8Array;
}

/** Our lease on some rows was gone by the time they were deleted: another worker has them now. */
class LeaseLostError extends Error {
  override name = 'LeaseLostError';
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
    // Large batches: a burst of bounces costs one read of their emails and one transaction per 200.
    batchSize: 200,
    // A steady trickle of bounces is taken every 25 ms rather than one transaction per message.
    gatherMs: 25,
    leaseMs: 2 * MINUTE,
    maxAttempts: 5,
    backoff: { baseMs: 30_000, maxMs: 30 * MINUTE },
    // In arrival order (the spool's id): the claim returns rows in no particular order, and the
    // reports on one email must apply in the order they came (status precedence depends on it).
    handleBatch: (rows, ctx) => processMessages(deps, rows.sort(byArrival), ctx, (outcome) => countFeedback(counter, outcome)),
    // Finished rows were deleted by the transaction that recorded them (processMessages).
    onDone: async () => {},
    onRetry: sql`last_error = job.job_error`,
    // Kept, not deleted: a message no attempt could take is for an operator to look at.
    onFailed: async (items, ctx) => {
      await sql`
        UPDATE inbound_messages SET failed_at = ${ctx.clock.now()}, last_error = job.job_error, lease_until = NULL
        FROM unnest(${items.map((item) => String(item.id))}::bigint[], ${items.map((item) => item.error)}::text[]) AS job(job_id, job_error)
        WHERE id = job.job_id AND lease_until = ${ctx.leaseUntil}::timestamptz`.execute(ctx.db);
      ctx.logger.error({ queue: INBOUND_QUEUE, ids: items.map((item) => String(item.id)), errors: items.map((item) => item.error) }, 'inbound messages failed for good');
    },
  });
}

const byArrival = (a: SpooledRow, b: SpooledRow) => {
  const [x, y] = [BigInt(String(a.id)), BigInt(String(b.id))];
  return x < y ? -1 : x > y ? 1 : 0;
};

/** The whole batch in one transaction; if that fails, each message alone, so that one bad message fails alone. */
async function processMessages(deps: FeedbackDeps, rows: SpooledRow[], ctx: BatchContext, count: (outcome: FeedbackOutcome) => void): Promise<JobOutcome[]> {
  try {
    const outcomes = await applyFeedbackBatch(
      deps,
      rows.map((row) => ({ envelope: { mailFrom: row.mail_from, rcptTo: row.rcpt_to }, raw: Buffer.from(row.raw.buffer, row.raw.byteOffset, row.raw.byteLength) })),
      (tx) => deleteSpooled(tx, rows, ctx.leaseUntil),
    );
    outcomes.forEach(count);
    const tally: Record<string, number> = {};
    for (const outcome of outcomes) tally[outcome.outcome] = (tally[outcome.outcome] ?? 0) + 1;
    ctx.logger.info({ queue: INBOUND_QUEUE, messages: rows.length, ...tally }, 'inbound messages processed');
    return rows.map((row) => ({ id: row.id, outcome: 'done' }));
  } catch (error) {
    if (rows.length === 1 || error instanceof LeaseLostError) {
      return rows.map((row) => ({ id: row.id, outcome: 'retry', error: errorMessage(error) }));
    }
    ctx.logger.warn({ queue: INBOUND_QUEUE, messages: rows.length, err: error }, 'inbound batch failed; processing its messages one by one');
    const outcomes: JobOutcome[] = [];
    for (const row of rows) outcomes.push(...(await processMessages(deps, [row], ctx, count)));
    return outcomes;
  }
}

/**
 * In the recording transaction: the rows go with the reports they carried, if they are still ours.
 * The transaction then commits without waiting for its WAL flush (synchronous_commit off, for it
 * alone): what it records is derived from the rows it deletes, so a crash that loses it loses both,
 * and the messages are processed again. The flush the spool's INSERTs wait for is not shared with
 * these larger transactions. A webhook sent for an event lost that way is sent again on replay
 * (webhooks are at least once).
 */
async function deleteSpooled(tx: Transaction<Database>, rows: SpooledRow[], leaseUntil: Date): Promise<void> {
  const result = await sql<{ deleted: string }>`
    WITH deleted AS (
      DELETE FROM inbound_messages WHERE id = ANY(${rows.map((row) => String(row.id))}::bigint[]) AND lease_until = ${leaseUntil}::timestamptz
      RETURNING 1)
    SELECT count(*) AS deleted, set_config('synchronous_commit', 'off', true) FROM deleted`.execute(tx);
  if (Number(result.rows[0]!.deleted) !== rows.length) throw new LeaseLostError('the lease on some inbound messages expired before they were recorded');
}
