// Running a queue's handler over one claimed batch, up to the outcomes the lane writes back: rows
// past maxAttempts fail without running, a handler that throws or passes its deadline has its rows
// retried, and outcomes for rows not in the batch are logged and ignored.
import { retryAtAfter } from '../db/retry.ts';
import type { Clock } from '../platform/clock.ts';
import { errorMessage, type ClaimedRow, type Queue } from './define-queue.ts';
import { withinDeadline } from './handler-deadline.ts';
import { LEASE_EXPIRED_ERROR, sortOutcomes, type SortedOutcomes } from './sort-outcomes.ts';
import type { BatchContext, JobId, JobOutcome, QueueLogger } from './types.ts';

export async function runHandler(
  queue: Queue,
  rows: ClaimedRow[],
  ctx: BatchContext,
  abort: AbortController,
  deps: { clock: Clock; logger: QueueLogger },
): Promise<SortedOutcomes> {
  // Rows claimed past maxAttempts were last held by workers that died with them (the claim counts
  // attempts): fail them rather than let a row that crashes workers take down the next one too.
  const outcomes: JobOutcome[] = [];
  const runnable = [];
  for (const row of rows) {
    if (Number(row[queue.attemptsColumn]) > queue.maxAttempts) {
      outcomes.push({ id: row[queue.idColumn] as JobId, outcome: 'failed', error: LEASE_EXPIRED_ERROR });
    } else {
      runnable.push(row);
    }
  }
  if (runnable.length > 0) {
    try {
      outcomes.push(...(await withinDeadline(queue.handleBatch(runnable, ctx), abort, queue.handlerTimeoutMs)));
    } catch (error) {
      deps.logger.warn({ queue: queue.name, err: error }, 'queue handler threw; retrying its batch');
      const message = errorMessage(error);
      // A lost database connection is no fault of the rows: due again in seconds, not after the backoff.
      const retryAt = retryAtAfter(error, deps.clock.now());
      for (const row of runnable)
        outcomes.push({ id: row[queue.idColumn] as JobId, outcome: 'retry', error: message, retryAt });
    }
  }
  const sorted = sortOutcomes(queue, rows, outcomes, deps.clock.now());
  if (sorted.ignored.length > 0) {
    const ids = sorted.ignored.map((outcome) => String(outcome.id));
    deps.logger.warn({ queue: queue.name, ids }, 'outcomes for rows not in the batch');
  }
  return sorted;
}
