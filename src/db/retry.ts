// Writes that must not be lost to a dropped connection. When a connection ends (a restart, a
// failover, pg_terminate_backend), the pool opens a new one at the next statement; a write whose
// loss would repeat work done outside the database (a message the relay already accepted) is tried
// again on it rather than left to the queue's retry, which would do that work twice.
import { isConnectionLost, isDeadlock } from './errors.ts';

const FIRST_PAUSE_MS = 100;
const MAX_PAUSE_MS = 2_000;

/**
 * Runs `write`, again after a pause (100 ms doubling to 2 s) while it fails because the connection
 * was lost, for at most `budgetMs`. Only for writes that are safe to repeat: conditional on a lease
 * or a status, so that a first attempt that did commit makes the next one a no-op.
 */
export async function retryWhileConnectionLost<T>(write: () => Promise<T>, budgetMs = 10_000): Promise<T> {
  const started = performance.now();
  for (let pause = FIRST_PAUSE_MS; ; pause = Math.min(pause * 2, MAX_PAUSE_MS)) {
    try {
      return await write();
    } catch (error) {
      if (!isConnectionLost(error) || performance.now() - started + pause > budgetMs) throw error;
      await new Promise((resolve) => setTimeout(resolve, pause));
    }
  }
}

/**
 * Runs `write` again (at most `tries` times in all) while PostgreSQL fails it to break a deadlock.
 * Only for a single statement, which the deadlock rolled back whole. It waits a moment first: a
 * row the failed attempt held reads as free at once, and an immediate retry can take it again
 * before the other side wakes, making the same deadlock a second time.
 */
export async function retryOnDeadlock<T>(write: () => Promise<T>, tries = 3): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await write();
    } catch (error) {
      if (!isDeadlock(error) || attempt >= tries) throw error;
      await new Promise((resolve) => setTimeout(resolve, attempt * (25 + Math.random() * 50)));
    }
  }
}

/**
 * Work that failed only because the connection was lost is due again this soon, not after its
 * queue's backoff (minutes for email delivery): the database is usually back within seconds, and a
 * one-time code must not wait out a failover.
 */
export const CONNECTION_LOST_RETRY_MS = 5_000;

/** The retry time of work that failed with `error`: soon when the connection was lost, else undefined (the backoff). */
export function retryAtAfter(error: unknown, now: Date): Date | undefined {
  return isConnectionLost(error) ? new Date(now.getTime() + CONNECTION_LOST_RETRY_MS) : undefined;
}
