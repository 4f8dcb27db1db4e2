// The claim: one statement that picks due rows nobody holds, skips rows another worker is locking
// right now, and stamps a lease on them. Time is a parameter (from the Clock), never SQL now(), so
// that tests move time and every worker judges leases by the same rule.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { ClaimedRow, Queue } from './define-queue.ts';
import { columnRef, tableRef } from './identifiers.ts';
import type { JobId } from './types.ts';

export interface ClaimedBatch {
  rows: ClaimedRow[];
  claimedAt: Date;
  leaseUntil: Date;
}

/** The rows a claim at `now` could take: ready, due, and not held by a live lease. */
function claimableWhere(queue: Queue, now: Date) {
  const due = columnRef(queue.dueColumn);
  const lease = columnRef(queue.leaseColumn);
  return sql`(${queue.readyWhere}) AND ${due} <= ${now}::timestamptz
    AND (${lease} IS NULL OR ${lease} < ${now}::timestamptz)`;
}

/**
 * The claim statement. `exclude` keeps rows out that the same statement is finalising (when the claim
 * rides along with a finalisation, see finalise.ts), even if their lease expired meanwhile.
 */
export function claimStatement(queue: Queue, now: Date, leaseUntil: Date, exclude: readonly JobId[] = []) {
  const table = tableRef(queue.table);
  const id = columnRef(queue.idColumn);
  const lease = columnRef(queue.leaseColumn);
  const attempts = columnRef(queue.attemptsColumn);
  const notFinalising = exclude.length === 0 ? sql`` : sql`AND ${id} <> ALL(${exclude})`;
  // SKIP LOCKED: two workers running this at once take disjoint rows instead of queueing on each
  // other's locks. Under READ COMMITTED a row locked here is re-checked against the WHERE with its
  // newest version, so a row another worker leased a moment ago is dropped, not claimed twice.
  // NO KEY UPDATE is the lock the UPDATE takes anyway; FOR UPDATE would also block inserts of rows
  // that reference the job by foreign key (an email's events) for as long as the claim runs.
  // The locked rows are updated where they lie (by ctid, which cannot change while we hold the
  // lock): a second descent of the id index per row would find the same version. A ctid is unique
  // within one partition only (emails are partitioned by month), hence the tableoid beside it.
  // The batch size is written into the text, not bound: PostgreSQL costs a generic plan with `LIMIT $n`
  // as if it kept a tenth of the table, and would then plan every claim afresh.
  return sql<ClaimedRow>`
    UPDATE ${table} SET ${lease} = ${leaseUntil}::timestamptz, ${attempts} = ${table}.${attempts} + 1
    FROM (
      SELECT tableoid AS herald_oid, ctid AS herald_tid FROM ${table}
      WHERE ${claimableWhere(queue, now)} ${notFinalising}
      ORDER BY ${columnRef(queue.dueColumn)}
      LIMIT ${sql.lit(queue.batchSize)}
      FOR NO KEY UPDATE SKIP LOCKED
    ) AS herald_picked
    WHERE ${table}.tableoid = herald_picked.herald_oid AND ${table}.ctid = herald_picked.herald_tid
    RETURNING ${queue.claimReturning ?? sql`${table}.*`}`;
}

export function leaseFor(queue: Queue, now: Date): Date {
  return new Date(now.getTime() + queue.leaseMs);
}

/** Claims up to batchSize due rows at `now` (the Clock's time) and leases them to the caller. */
export async function claimDue(db: Kysely<Database>, queue: Queue, now: Date): Promise<ClaimedBatch> {
  const leaseUntil = leaseFor(queue, now);
  const result = await claimStatement(queue, now, leaseUntil).execute(db);
  return { rows: result.rows, claimedAt: now, leaseUntil };
}

/**
 * Gives rows back at once (graceful shutdown) instead of making others wait for the lease to run out.
 * Matching on our own lease leaves alone any row another worker has taken over meanwhile.
 */
export async function releaseLeases(
  db: Kysely<Database>,
  queue: Queue,
  ids: readonly JobId[],
  leaseUntil: Date,
): Promise<number> {
  if (ids.length === 0) return 0;
  const lease = columnRef(queue.leaseColumn);
  const result = await sql`
    UPDATE ${tableRef(queue.table)} SET ${lease} = NULL
    WHERE ${columnRef(queue.idColumn)} = ANY(${ids}) AND ${lease} = ${leaseUntil}::timestamptz`.execute(db);
  return Number(result.numAffectedRows ?? 0n);
}

/**
 * Moves a live batch's lease on (queues with leaseRenewMs). Matching on the lease we hold leaves alone
 * any row another worker has taken over; answers how many rows are still ours.
 */
export async function renewLeases(
  db: Kysely<Database>,
  queue: Queue,
  ids: readonly JobId[],
  leaseUntil: Date,
  renewedUntil: Date,
): Promise<number> {
  if (ids.length === 0) return 0;
  const lease = columnRef(queue.leaseColumn);
  const result = await sql`
    UPDATE ${tableRef(queue.table)} SET ${lease} = ${renewedUntil}::timestamptz
    WHERE ${columnRef(queue.idColumn)} = ANY(${ids}) AND ${lease} = ${leaseUntil}::timestamptz`.execute(db);
  return Number(result.numAffectedRows ?? 0n);
}

/** Due rows nobody holds: what herald_queue_depth reports. */
export async function queueDepth(db: Kysely<Database>, queue: Queue, now: Date): Promise<number> {
  const result = await sql<{ depth: bigint | number }>`
    SELECT count(*) AS depth FROM ${tableRef(queue.table)} WHERE ${claimableWhere(queue, now)}`.execute(db);
  return Number(result.rows[0]?.depth ?? 0);
}
