// Every batch handler has a deadline (queue.handlerTimeoutMs), so that one that hangs ends before
// its lease and cannot hold its rows, or the rows behind them, for good (issue 41).
import type { JobOutcome } from './types.ts';

/** A batch handler that did not settle within its queue's handlerTimeoutMs; its rows are retried. */
export class HandlerDeadlineError extends Error {
  override name = 'HandlerDeadlineError';
  constructor(timeoutMs: number) {
    super(`the handler did not finish within ${timeoutMs} ms`);
  }
}

/**
 * The handler's answer, or past `timeoutMs` a throw: the batch's signal (`abort`) is aborted first,
 * and a handler that stops on it (rowByRow does) still answers for the rows it finished, within a
 * short grace. A handler that ignores it is left running; its rows are retried, and whatever it
 * writes later matches a lease the rows no longer carry.
 */
export async function withinDeadline(
  handling: Promise<JobOutcome[]>,
  abort: AbortController,
  timeoutMs: number,
): Promise<JobOutcome[]> {
  const graceMs = Math.min(1_000, Math.ceil(timeoutMs / 10));
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const error = new HandlerDeadlineError(timeoutMs);
      abort.abort(error);
      timer = setTimeout(() => reject(error), graceMs);
    }, timeoutMs);
  });
  try {
    return await Promise.race([handling, deadline]);
  } finally {
    clearTimeout(timer);
  }
}
