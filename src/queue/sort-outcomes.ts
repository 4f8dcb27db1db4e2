// Turning a handler's answer into finalisation lists: which rows are done, which come back later
// (and when), which failed for good.
import { retryDelayMs } from './backoff.ts';
import type { ClaimedRow, Queue } from './define-queue.ts';
import type { FinaliseItem, JobId, JobOutcome } from './types.ts';

export interface SortedOutcomes {
  done: FinaliseItem<ClaimedRow>[];
  retry: FinaliseItem<ClaimedRow>[];
  failed: FinaliseItem<ClaimedRow>[];
  /** Outcomes naming an id that is not in the batch (or a second outcome for the same row). */
  ignored: JobOutcome[];
}

const NO_OUTCOME_ERROR = 'handler returned no outcome for this row';
export const LEASE_EXPIRED_ERROR = 'attempts used up: the row was claimed again after its lease expired';

/** Sorts a handler's outcomes; rows it said nothing about are retried, and retries past maxAttempts fail. */
export function sortOutcomes(queue: Queue, rows: ClaimedRow[], outcomes: JobOutcome[], now: Date): SortedOutcomes {
  const sorted: SortedOutcomes = { done: [], retry: [], failed: [], ignored: [] };
  const pending = new Map<string, ClaimedRow>();
  for (const row of rows) pending.set(String(row[queue.idColumn]), row);
  const retryOrFail = (id: JobId, row: ClaimedRow, error: string, retryAt?: Date) => {
    const attempts = Number(row[queue.attemptsColumn]);
    if (attempts >= queue.maxAttempts) {
      sorted.failed.push({ id, row, error, retryAt: null });
    } else {
      const at = retryAt ?? new Date(now.getTime() + retryDelayMs(attempts, queue.backoff));
      sorted.retry.push({ id, row, error, retryAt: at });
    }
  };
  for (const outcome of outcomes) {
    const key = String(outcome.id);
    const row = pending.get(key);
    if (row === undefined) {
      sorted.ignored.push(outcome);
      continue;
    }
    pending.delete(key);
    const id = row[queue.idColumn] as JobId;
    if (outcome.outcome === 'done') sorted.done.push({ id, row, error: null, retryAt: null });
    else if (outcome.outcome === 'failed') sorted.failed.push({ id, row, error: outcome.error, retryAt: null });
    else retryOrFail(id, row, outcome.error, outcome.retryAt);
  }
  for (const row of pending.values()) retryOrFail(row[queue.idColumn] as JobId, row, NO_OUTCOME_ERROR);
  return sorted;
}
