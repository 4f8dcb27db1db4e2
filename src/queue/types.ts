// Shared shapes of the work queue. The resource row is the job: a queue points at a caller's table
// and its columns instead of keeping a jobs table of its own.
import type { Kysely, RawBuilder } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { Clock } from '../platform/clock.ts';

/** A job's primary key as the driver returns it (int8 comes back as bigint). */
export type JobId = string | number | bigint;

/** A raw SQL fragment built with Kysely's `sql` tag, e.g. sql`status = 'QUEUED'`. */
export type SqlFragment = RawBuilder<unknown>;

/** What became of one row of a batch; the runner finalises each kind with one statement. */
export type JobOutcome =
  | { id: JobId; outcome: 'done' }
  /** retryAt overrides the computed backoff, e.g. when a provider answered with Retry-After. */
  | { id: JobId; outcome: 'retry'; error: string; retryAt?: Date }
  | { id: JobId; outcome: 'failed'; error: string };

/** pino-compatible: pass a pino logger (or a child of one) as is. */
export interface QueueLogger {
  debug(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export const silentLogger: QueueLogger = {
  debug() {},
  info() {},
  warn() {},
  error() {},
};

/** Handed to a batch handler and to custom finalisers. */
export interface BatchContext {
  queue: string;
  db: Kysely<Database>;
  clock: Clock;
  /** The clock's time when the batch was claimed. */
  claimedAt: Date;
  /**
   * The lease the runner holds on every row of the batch; finalisers match on it. A queue with
   * leaseRenewMs moves it on: write back through `underLease(ctx, write)` (lease-keeper.ts).
   */
  readonly leaseUntil: Date;
  /** Set by the runner: runs a write with the current lease, never during a renewal. */
  underLease?: <T>(write: (leaseUntil: Date) => Promise<T>) => Promise<T>;
  /** Aborted when stop() gives up waiting; the rows are released to other workers then. */
  signal: AbortSignal;
  logger: QueueLogger;
}

/** One row on its way to a finaliser. error is null for done rows, retryAt set only for retries. */
export interface FinaliseItem<Row> {
  id: JobId;
  row: Row;
  error: string | null;
  retryAt: Date | null;
}

/**
 * How rows of one outcome kind are written back. A fragment is added to the SET list of the default
 * bulk UPDATE (which always clears the lease, and for retries moves the due column); inside it
 * `job_error` (and for retries `job_retry_at`) name the per-row values. A function replaces the
 * default statement entirely; it must match rows on `ctx.leaseUntil` so that a worker whose lease
 * expired cannot overwrite the work of the worker that took the rows over.
 */
export type Finaliser<Row> = SqlFragment | ((items: FinaliseItem<Row>[], ctx: BatchContext) => Promise<void>);

/**
 * A work loop the runner drives: QueueLane for a defineQueue queue, or an area's own loop whose
 * claiming does not fit the generic one (webhook delivery's per-webhook caps).
 */
export interface Lane {
  /** The queue name NOTIFY payloads use. */
  readonly name: string;
  start(): void;
  /** Work was announced: look now instead of at the next poll. */
  notify(): void;
  /** Resolves once a look that started after the call found nothing to do and nothing is in flight. */
  idle(): Promise<void>;
  /** Stops taking work, waits for work in hand until `deadline`, then hands back the rest; returns how many. */
  stop(deadline: Promise<void>): Promise<number>;
}
