// defineQueue: a typed description of "rows of this table are jobs". The runner only sees the
// erased Queue shape; the Row type lives in the caller's handler and finalisers.
import { sql } from 'kysely';
import { defaultBackoff, type BackoffOptions } from './backoff.ts';
import { checkIdentifier } from './identifiers.ts';
import type { BatchContext, Finaliser, JobId, JobOutcome, SqlFragment } from './types.ts';

export interface QueueOptions<Row> {
  /** For metrics, logs and the NOTIFY payload. */
  name: string;
  /** The caller's table; may be schema-qualified. */
  table: string;
  idColumn?: string;
  /** SQL type of the id column for array casts, e.g. 'bigint'; looked up in the catalog when omitted. */
  idType?: string;
  /** A row is due when this timestamptz column <= now; retries move it forward. */
  dueColumn: string;
  /** timestamptz; null when nobody holds the row. */
  leaseColumn?: string;
  /** integer; incremented by every claim, so a row that kills its worker still runs out of attempts. */
  attemptsColumn?: string;
  /** Extra condition for a row to be ready, e.g. sql`status = 'QUEUED'`. */
  readyWhere?: SqlFragment;
  /** The columns the claim answers (with the id column); the default answers every column. */
  claimReturning?: SqlFragment;
  batchSize?: number;
  /**
   * Must be longer than the slowest batch, unless renewed: an expired lease hands the rows to another
   * worker.
   */
  leaseMs?: number;
  /**
   * Renew the lease this often while the handler works (default: never). A short lease with renewal
   * gives a killed worker's rows back within leaseMs while a slow live one keeps them; its writes back
   * go through `underLease` (lease-keeper.ts). Must be well under leaseMs.
   */
  leaseRenewMs?: number;
  /**
   * How long a batch's handler may run (default: three quarters of leaseMs, or 5 minutes for a queue
   * that renews its lease). Past it the batch counts as thrown: ctx.signal is aborted, and rows the
   * handler has not answered for are retried with backoff, then failed after maxAttempts. So a
   * handler that hangs ends before its lease, and cannot hold its rows (or the rows behind them) for good.
   */
  handlerTimeoutMs?: number;
  maxAttempts?: number;
  backoff?: Partial<BackoffOptions>;
  /** Batches of this queue one runner works on at once. */
  concurrency?: number;
  /**
   * At most this many of them full (default: no limit). Under a backlog every claim walks past the
   * rows the other batches hold, the oldest due; the slots beyond this wait, and serve a trickle.
   */
  fullBatches?: number;
  /**
   * After a batch that was not full, wait this long before the next claim (default 0: claim at once),
   * so that work arriving in a steady trickle is taken in fewer, larger batches. For queues whose
   * batches have a high fixed cost and whose work may wait that long; the claim after an idle spell
   * is still immediate.
   */
  gatherMs?: number;
  /**
   * Rows come back due at once when written back done (a campaign sends batch after batch). The
   * claim that writes a batch back cannot see it due again (one snapshot), so the slot claims again
   * at once rather than sleeping the poll interval.
   */
  claimAgainAtOnce?: boolean;
  /** Give one of the two: a whole batch, or one row at a time (all rows of a batch concurrently). */
  handleBatch?: (rows: Row[], ctx: BatchContext) => Promise<JobOutcome[]>;
  /** Resolve: done. Throw: retry. Throw PermanentJobError: failed without further attempts. */
  handleRow?: (row: Row, ctx: BatchContext) => Promise<void>;
  onDone: Finaliser<Row>;
  /** Default: reschedule with backoff and clear the lease; a fragment adds SET assignments. */
  onRetry?: Finaliser<Row>;
  /** Rows that failed for good or ran out of attempts. */
  onFailed: Finaliser<Row>;
}

/** A claimed row as the driver returns it; defineQueue's Row is the caller's view of it. */
export type ClaimedRow = Record<string, unknown>;

export interface Queue {
  readonly name: string;
  readonly table: string;
  readonly idColumn: string;
  readonly idType: string | null;
  readonly dueColumn: string;
  readonly leaseColumn: string;
  readonly attemptsColumn: string;
  readonly readyWhere: SqlFragment;
  readonly claimReturning: SqlFragment | null;
  readonly batchSize: number;
  readonly leaseMs: number;
  readonly leaseRenewMs: number | null;
  readonly handlerTimeoutMs: number;
  readonly maxAttempts: number;
  readonly backoff: BackoffOptions;
  readonly concurrency: number;
  readonly fullBatches: number;
  readonly gatherMs: number;
  readonly claimAgainAtOnce: boolean;
  readonly handleBatch: (rows: ClaimedRow[], ctx: BatchContext) => Promise<JobOutcome[]>;
  readonly onDone: Finaliser<ClaimedRow>;
  readonly onRetry: Finaliser<ClaimedRow> | null;
  readonly onFailed: Finaliser<ClaimedRow>;
}

/** Thrown by a handleRow handler when trying again cannot help (bad address, rejected payload). */
export class PermanentJobError extends Error {
  override name = 'PermanentJobError';
}

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function nonNegative(what: string, value: number): number {
  if (!Number.isFinite(value) || value < 0) throw new Error(`queue ${what} must be a number of at least 0`);
  return value;
}

function positive(what: string, value: number): number {
  if (!Number.isInteger(value) || value < 1) throw new Error(`queue ${what} must be a positive integer`);
  return value;
}

export function defineQueue<Row extends object>(options: QueueOptions<Row>): Queue {
  const idColumn = checkIdentifier('idColumn', options.idColumn ?? 'id');
  if ((options.handleBatch === undefined) === (options.handleRow === undefined)) {
    throw new Error(`queue ${options.name}: give exactly one of handleBatch and handleRow`);
  }
  const handleBatch =
    options.handleBatch ?? rowByRow(options.handleRow as NonNullable<typeof options.handleRow>, idColumn);
  const backoff = { ...defaultBackoff, ...options.backoff };
  const leaseMs = positive('leaseMs', options.leaseMs ?? 60_000);
  const leaseRenewMs = options.leaseRenewMs === undefined ? null : positive('leaseRenewMs', options.leaseRenewMs);
  // A renewal that comes after the lease ran out cannot keep the rows.
  if (leaseRenewMs !== null && leaseRenewMs * 2 > leaseMs)
    throw new Error(`queue ${options.name}: leaseRenewMs must be at most half of leaseMs`);
  const handlerTimeoutMs = handlerTimeoutOf(options.name, options.handlerTimeoutMs, leaseMs, leaseRenewMs);
  positive('backoff.baseMs', backoff.baseMs);
  positive('backoff.maxMs', backoff.maxMs);
  // The Row type is the caller's promise about what the claim's RETURNING yields; this is the one place it is taken.
  const erase = (finaliser: Finaliser<Row>) => finaliser as unknown as Finaliser<ClaimedRow>;
  return {
    name: options.name,
    table: checkIdentifier('table', options.table, true),
    idColumn,
    idType: options.idType ?? null,
    dueColumn: checkIdentifier('dueColumn', options.dueColumn),
    leaseColumn: checkIdentifier('leaseColumn', options.leaseColumn ?? 'lease_until'),
    attemptsColumn: checkIdentifier('attemptsColumn', options.attemptsColumn ?? 'attempts'),
    readyWhere: options.readyWhere ?? sql`true`,
    claimReturning: options.claimReturning ?? null,
    batchSize: positive('batchSize', options.batchSize ?? 50),
    leaseMs,
    leaseRenewMs,
    handlerTimeoutMs,
    maxAttempts: positive('maxAttempts', options.maxAttempts ?? 5),
    backoff,
    concurrency: positive('concurrency', options.concurrency ?? 1),
    fullBatches:
      options.fullBatches === undefined ? Number.POSITIVE_INFINITY : positive('fullBatches', options.fullBatches),
    gatherMs: nonNegative('gatherMs', options.gatherMs ?? 0),
    claimAgainAtOnce: options.claimAgainAtOnce ?? false,
    handleBatch: handleBatch as unknown as Queue['handleBatch'],
    onDone: erase(options.onDone),
    onRetry: options.onRetry === undefined ? null : erase(options.onRetry),
    onFailed: erase(options.onFailed),
  };
}

/** A renewed lease does not bound a batch; this does, for queues that renew and give no deadline. */
const RENEWED_HANDLER_TIMEOUT_MS = 5 * 60_000;

function handlerTimeoutOf(name: string, given: number | undefined, leaseMs: number, leaseRenewMs: number | null) {
  if (given === undefined) return leaseRenewMs === null ? Math.floor(leaseMs * 0.75) : RENEWED_HANDLER_TIMEOUT_MS;
  positive('handlerTimeoutMs', given);
  // Without renewal the lease must outlast the handler and the write back after it.
  if (leaseRenewMs === null && given >= leaseMs)
    throw new Error(`queue ${name}: handlerTimeoutMs must be shorter than leaseMs`);
  return given;
}

/** Rows still running when ctx.signal aborts (the handler's deadline) are answered retry at once. */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

function rowByRow<Row extends object>(
  handleRow: (row: Row, ctx: BatchContext) => Promise<void>,
  idColumn: string,
): (rows: Row[], ctx: BatchContext) => Promise<JobOutcome[]> {
  return async (rows, ctx) => {
    const settled = await Promise.allSettled(rows.map((row) => untilAborted(handleRow(row, ctx), ctx.signal)));
    return settled.map((result, i): JobOutcome => {
      const id = (rows[i] as Record<string, unknown>)[idColumn] as JobId;
      if (result.status === 'fulfilled') return { id, outcome: 'done' };
      const error = errorMessage(result.reason);
      return result.reason instanceof PermanentJobError
        ? { id, outcome: 'failed', error }
        : { id, outcome: 'retry', error };
    });
  };
}
