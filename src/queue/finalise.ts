// Writing a batch back: each outcome kind is written with ONE statement for the whole batch, and when
// the finalisers are SQL fragments those statements and the claim of the next batch travel together
// as one statement: one round trip and one commit per batch, as for a bare UPDATE. Per-row statements
// would cost a round trip per job and cap throughput far below what the claim can feed.
import { sql, type Kysely, type RawBuilder } from 'kysely';
import { retryOnDeadlock, retryWhileConnectionLost } from '../db/retry.ts';
import type { Database } from '../db/schema.ts';
import { claimDue, claimStatement, leaseFor, type ClaimedBatch } from './claim.ts';
import type { ClaimedRow, Queue } from './define-queue.ts';
import { columnRef, tableRef } from './identifiers.ts';
import type { SortedOutcomes } from './sort-outcomes.ts';
import type { BatchContext, FinaliseItem, Finaliser, JobId, SqlFragment } from './types.ts';

type Kind = 'done' | 'retry' | 'failed';
const KINDS: readonly Kind[] = ['done', 'retry', 'failed'];

export interface FinaliseCounts {
  done: number;
  retry: number;
  failed: number;
  /** Rows whose lease was no longer ours, so nothing was written for them. */
  lost: number;
}

const idTypes = new WeakMap<Queue, Promise<string>>();

/** The id column's SQL type, needed to cast the id array that unnest() pairs with per-row values. */
function resolveIdType(db: Kysely<Database>, queue: Queue): Promise<string> {
  if (queue.idType !== null) return Promise.resolve(queue.idType);
  let type = idTypes.get(queue);
  if (type === undefined) {
    type = sql<{ type: string }>`
      SELECT format_type(atttypid, atttypmod) AS type FROM pg_attribute
      WHERE attrelid = ${queue.table}::regclass AND attname = ${queue.idColumn} AND NOT attisdropped`
      .execute(db)
      .then((result) => {
        const found = result.rows[0]?.type;
        if (found === undefined) throw new Error(`queue ${queue.name}: no column ${queue.idColumn} in ${queue.table}`);
        return found;
      });
    // A failed lookup (table not created yet) must not be cached forever.
    type.catch(() => idTypes.delete(queue));
    idTypes.set(queue, type);
  }
  return type;
}

function finaliserOf(queue: Queue, kind: Kind): Finaliser<ClaimedRow> | null {
  return kind === 'done' ? queue.onDone : kind === 'retry' ? queue.onRetry : queue.onFailed;
}

/** The default bulk UPDATE of one kind; `extra` adds the queue's SET assignments. */
function defaultStatement(
  queue: Queue,
  kind: Kind,
  items: FinaliseItem<ClaimedRow>[],
  extra: SqlFragment | null,
  leaseUntil: Date,
  idType: string,
): RawBuilder<unknown> {
  const table = tableRef(queue.table);
  const id = columnRef(queue.idColumn);
  const lease = columnRef(queue.leaseColumn);
  const ids = items.map((item) => item.id);
  const set = (...assignments: SqlFragment[]) => sql.join(extra === null ? assignments : [...assignments, extra]);
  // Matching on our lease: if it expired and another worker took the rows, its work stands, not ours.
  const ours = sql`${lease} = ${leaseUntil}::timestamptz`;
  const clearLease = sql`${lease} = NULL`;
  if (kind === 'done') {
    return sql`UPDATE ${table} SET ${set(clearLease)} WHERE ${id} = ANY(${ids}) AND ${ours}`;
  }
  const idArray = sql`${ids}::${sql.raw(idType)}[]`;
  const errors = items.map((item) => item.error);
  if (kind === 'failed') {
    return sql`UPDATE ${table} SET ${set(clearLease)}
      FROM unnest(${idArray}, ${errors}::text[]) AS job(job_id, job_error)
      WHERE ${id} = job.job_id AND ${ours}`;
  }
  const retryAts = items.map((item) => item.retryAt);
  const moveDue = sql`${columnRef(queue.dueColumn)} = job.job_retry_at`;
  return sql`UPDATE ${table} SET ${set(moveDue, clearLease)}
    FROM unnest(${idArray}, ${retryAts}::timestamptz[], ${errors}::text[]) AS job(job_id, job_retry_at, job_error)
    WHERE ${id} = job.job_id AND ${ours}`;
}

async function runFinaliser(
  queue: Queue,
  kind: Kind,
  items: FinaliseItem<ClaimedRow>[],
  ctx: BatchContext,
): Promise<number> {
  if (items.length === 0) return 0;
  const finaliser = finaliserOf(queue, kind);
  if (typeof finaliser === 'function') {
    await finaliser(items, ctx);
    return items.length;
  }
  const idType = kind === 'done' ? '' : await resolveIdType(ctx.db, queue);
  const result = await defaultStatement(queue, kind, items, finaliser, ctx.leaseUntil, idType).execute(ctx.db);
  return Number(result.numAffectedRows ?? 0n);
}

function countsOf(sorted: SortedOutcomes, done: number, retry: number, failed: number): FinaliseCounts {
  const total = sorted.done.length + sorted.retry.length + sorted.failed.length;
  return { done, retry, failed, lost: total - done - retry - failed };
}

/** Writes a sorted batch back: at most one statement per outcome kind, run side by side. */
export async function finaliseBatch(queue: Queue, sorted: SortedOutcomes, ctx: BatchContext): Promise<FinaliseCounts> {
  // A lost connection (a failover) would leave the batch to its lease, minutes away; the writes match
  // on our lease, so writing again on a new connection is safe.
  const [done, retry, failed] = await Promise.all(
    KINDS.map((kind) => retryWhileConnectionLost(() => runFinaliser(queue, kind, sorted[kind], ctx))),
  );
  return countsOf(sorted, done ?? 0, retry ?? 0, failed ?? 0);
}

interface FinaliseAndClaimResult {
  counts: FinaliseCounts;
  next: ClaimedBatch;
}

/**
 * Finalises a batch and claims the next one at `now`. With SQL-fragment finalisers this is a single
 * statement (data-modifying CTEs); a queue with a custom finaliser function gets separate statements.
 */
export async function finaliseAndClaim(
  queue: Queue,
  sorted: SortedOutcomes,
  ctx: BatchContext,
  now: Date,
): Promise<FinaliseAndClaimResult> {
  const kinds = KINDS.filter((kind) => sorted[kind].length > 0);
  if (kinds.length === 0 || kinds.some((kind) => typeof finaliserOf(queue, kind) === 'function')) {
    const counts = await finaliseBatch(queue, sorted, ctx);
    return { counts, next: await claimDue(ctx.db, queue, now) };
  }
  const idType = kinds.some((kind) => kind !== 'done') ? await resolveIdType(ctx.db, queue) : '';
  const leaseUntil = leaseFor(queue, now);
  const finalising: JobId[] = kinds.flatMap((kind) => sorted[kind].map((item) => item.id));
  const ctes = kinds.map((kind) => {
    const extra = finaliserOf(queue, kind) as SqlFragment | null;
    const update = defaultStatement(queue, kind, sorted[kind], extra, ctx.leaseUntil, idType);
    return sql`${sql.raw(`herald_${kind}`)} AS (${update} RETURNING 1)`;
  });
  const claim = claimStatement(queue, now, leaseUntil, finalising);
  const counts = kinds.map((kind) => sql.raw(`(SELECT count(*) FROM herald_${kind}) AS herald_queue_${kind}`));
  // All parts see one snapshot; `finalising` keeps the claim off rows this statement finalises. The
  // LEFT JOIN returns the counts even when nothing new was claimed. Two such statements can deadlock:
  // a claim locks rows leased since its snapshot before it skips them, and keeps those locks while
  // its own finalising waits; the one PostgreSQL fails is tried again.
  const result = await retryWhileConnectionLost(() =>
    retryOnDeadlock(() =>
      sql<ClaimedRow>`
        WITH ${sql.join(ctes)}, herald_claimed AS (${claim})
        SELECT herald_counts.*, herald_claimed.*
        FROM (SELECT ${sql.join(counts)}) AS herald_counts LEFT JOIN herald_claimed ON true`.execute(ctx.db),
    ),
  );
  const first = result.rows[0] ?? {};
  const [done, retry, failed] = KINDS.map((kind) => Number(first[`herald_queue_${kind}`] ?? 0));
  const rows: ClaimedRow[] = [];
  for (const row of result.rows) {
    if (row[queue.idColumn] === null || row[queue.idColumn] === undefined) continue;
    for (const kind of kinds) delete row[`herald_queue_${kind}`];
    rows.push(row);
  }
  return {
    counts: countsOf(sorted, done ?? 0, retry ?? 0, failed ?? 0),
    next: { rows, claimedAt: now, leaseUntil },
  };
}
