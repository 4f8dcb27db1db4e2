// Wake-ups: a runner sleeps for the poll interval unless work is announced. Announcements come
// in-process (runner.notify) or from any process through PostgreSQL NOTIFY on one channel.
import { sql, type RawBuilder } from 'kysely';

/** Anything a raw query runs on: a Kysely instance or a transaction, of any schema. */
export type SqlExecutor = Parameters<RawBuilder<unknown>['execute']>[0];

export const QUEUE_CHANNEL = 'herald_queue';

/**
 * Announces work on `queueName`. Run it inside the transaction that inserts or reschedules the rows:
 * PostgreSQL delivers the notification at commit, so no worker wakes before the rows are visible,
 * and a rolled-back transaction wakes nobody.
 */
export async function notifyQueue(tx: SqlExecutor, queueName: string): Promise<void> {
  await sql`SELECT pg_notify(${QUEUE_CHANNEL}, ${queueName})`.execute(tx);
}

/**
 * A resettable wake-up. A fire() that lands while nobody waits is remembered, so a notification that
 * arrives during a claim (whose snapshot may have missed the new rows) makes the next wait return at once.
 */
export class WakeSignal {
  #pending = false;
  readonly #waiters = new Set<() => void>();

  fire(): void {
    if (this.#waiters.size === 0) {
      this.#pending = true;
      return;
    }
    for (const wake of [...this.#waiters]) wake();
  }

  /**
   * Forget earlier fires: called right before a claim statement, which sees every row committed so
   * far. Fires from then on make the next wait return at once.
   */
  clear(): void {
    this.#pending = false;
  }

  /** Resolves on fire() or after ms, whichever comes first. */
  wait(ms: number): Promise<void> {
    if (this.#pending) {
      this.#pending = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        this.#waiters.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      this.#waiters.add(wake);
    });
  }
}

/**
 * Announces work after commit, at most one NOTIFY per queue per `intervalMs`. NOTIFY inside a write
 * transaction takes a database-wide lock from just before commit until the commit is flushed, so
 * every notifying transaction of the cluster commits one after the other; a busy send path must not
 * notify in its transactions. A lost announcement (process killed before the timer) only delays the
 * work until the runners' next poll.
 */
export class QueueAnnouncer {
  readonly #db: SqlExecutor;
  readonly #intervalMs: number;
  readonly #onError: (error: unknown) => void;
  readonly #pending = new Set<string>();
  #timer: NodeJS.Timeout | null = null;
  #closed = false;

  constructor(db: SqlExecutor, options: { intervalMs?: number; onError?: (error: unknown) => void } = {}) {
    this.#db = db;
    this.#intervalMs = options.intervalMs ?? 5;
    this.#onError = options.onError ?? (() => {});
  }

  /** Call after the commit that made the work visible. */
  announce(queueName: string): void {
    if (this.#closed) return;
    this.#pending.add(queueName);
    if (this.#timer !== null) return;
    this.#timer = setTimeout(() => void this.flush(), this.#intervalMs);
    this.#timer.unref();
  }

  /** Sends the pending announcements now. */
  async flush(): Promise<void> {
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#timer = null;
    const names = [...this.#pending];
    this.#pending.clear();
    if (names.length === 0) return;
    try {
      await sql`SELECT pg_notify(${QUEUE_CHANNEL}, name) FROM unnest(${names}::text[]) AS name`.execute(this.#db);
    } catch (error) {
      this.#onError(error);
    }
  }

  async close(): Promise<void> {
    await this.flush();
    this.#closed = true;
  }
}

/** Resolves after `ms`, or at once when `signal` aborts. */
export function pause(ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done);
  });
}
