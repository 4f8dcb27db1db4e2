// A retention run (the hourly chore, src/retention/README.md): month partitions made ahead, every
// month older than its family's retention dropped whole (detached children first, in one
// transaction, then dropped) unless a row of it is not final yet, then emails' bodies past HERALD_RETENTION_BODIES_DAYS removed in
// bounded batches from where the last run stopped.
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { familyTables, PARTITION_FAMILIES, type PartitionFamily } from './families.ts';
import { isDeadlock, isLockTimeout } from '../db/errors.ts';
import {
  bodiesMark,
  detachedPartitions,
  detachPartition,
  dropTables,
  ensureMonthPartition,
  holdsRowsWhere,
  listPartitions,
  lockFamily,
  removeEmailBodies,
  waitForLocksAtMost,
} from './partition-queries.ts';
import { familyDays, idFloor, keptSince, upperBound, type RetentionDays } from './plan.ts';

/** Months made ahead of the current one: a send at midnight never waits for its partition. */
export const MONTHS_AHEAD = 2;
const BODY_BATCH = 1_000;
/** How long making or dropping a partition waits for the writes in flight; new writes wait behind it meanwhile. */
const LOCK_WAIT_MS = 2_000;
/** A run's share of bodies: a first run after an upgrade catches up over several hours, not in one. */
const BODIES_RUN_MS = 5 * 60_000;

export interface RetentionReport {
  /** Partitions that could not be made: the DEFAULT partition holds rows of their month. */
  notMade: string[];
  /** Partitions not made because writes held their table past LOCK_WAIT_MS (the next run tries again). */
  waited: string[];
  dropped: string[];
  /** Months not dropped because writes held their tables past LOCK_WAIT_MS (the next run tries again). */
  busy: string[];
  held: { partition: string; notFinal: number }[];
  bodiesRemoved: number;
}

/** The first day (UTC) of the month `k` months after `now`'s. */
const monthStart = (now: Date, k: number) => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + k, 1));

type MonthTable = ReturnType<typeof familyTables>[number];

/**
 * Makes one table's partition of `month` unless it exists. Making one locks its parent whole: it
 * waits at most LOCK_WAIT_MS for the writes in flight (new writes queue behind it meanwhile), so
 * that a long read of the table never holds sends up behind it.
 */
async function makeMonth(db: Kysely<Database>, table: MonthTable, prefix: string, month: Date) {
  try {
    return await db.transaction().execute(async (tx) => {
      await waitForLocksAtMost(tx, LOCK_WAIT_MS);
      return (await ensureMonthPartition(tx, table.name, prefix, month, table.options, table.reference))
        ? 'exists'
        : 'refused';
    });
  } catch (error) {
    if (isLockTimeout(error)) return 'busy';
    throw error;
  }
}

/**
 * Every family's partitions of this month and the next MONTHS_AHEAD (a no-op when they exist): those
 * the DEFAULT partition refuses (it holds rows of their month) and those writes kept busy, children
 * included when their root's month was not made.
 */
export async function ensurePartitionsAhead(db: Kysely<Database>, now: Date) {
  const made = { notMade: [] as string[], waited: [] as string[] };
  for (const family of PARTITION_FAMILIES) {
    const [root, ...children] = familyTables(family);
    for (let k = 0; k <= MONTHS_AHEAD; k++) {
      const month = monthStart(now, k);
      const record = (table: MonthTable, outcome: Awaited<ReturnType<typeof makeMonth>>) => {
        const name = `${table.name} ${month.toISOString().slice(0, 7)}`;
        if (outcome !== 'exists') (outcome === 'busy' ? made.waited : made.notMade).push(name);
      };
      const rootMonth = await makeMonth(db, root!, family.prefix, month);
      record(root!, rootMonth);
      for (const table of children)
        record(table, rootMonth === 'exists' ? await makeMonth(db, table, family.prefix, month) : rootMonth);
    }
  }
  return made;
}

async function dropExpiredMonths(db: Kysely<Database>, now: Date, days: RetentionDays, report: RetentionReport) {
  for (const family of PARTITION_FAMILIES) {
    const tables = [family.root, ...family.children.map((c) => c.name)];
    const leftovers = await detachedPartitions(db, tables);
    if (leftovers.length > 0) {
      await dropTables(db, leftovers);
      report.dropped.push(...leftovers);
    }
    const cutoff = await idFloor(db, family.prefix, keptSince(now, familyDays(family, days)));
    for (const root of await listPartitions(db, family.root)) {
      const upper = upperBound(root.bound);
      if (upper === null || upper > cutoff) continue;
      const notFinal = family.notFinal ? await holdsRowsWhere(db, root.name, family.notFinal) : 0;
      if (notFinal > 0) {
        report.held.push({ partition: root.name, notFinal });
        continue;
      }
      const detached = await detachMonth(db, family, root.name).catch((error: unknown) => {
        // Writes held the tables past the wait: the next run tries again.
        if (isLockTimeout(error) || isDeadlock(error)) return null;
        throw error;
      });
      if (!detached) {
        report.busy.push(root.name);
        continue;
      }
      // Dropped after the detach has committed: removing the files (a second or more for a large
      // month) holds no table a write uses. A run stopped in between leaves them for the next.
      await dropTables(db, detached);
      report.dropped.push(...detached);
    }
  }
}

/** Detaches a month's partitions of a family, children before the root, in one transaction. */
async function detachMonth(db: Kysely<Database>, family: PartitionFamily, rootPartition: string) {
  const suffix = rootPartition.slice(family.root.length);
  return db.transaction().execute(async (tx) => {
    await lockFamily(tx, [family.root, ...family.children.map((c) => c.name)], LOCK_WAIT_MS);
    const detached: string[] = [];
    for (const child of family.children) {
      const partition = child.name + suffix;
      if (!(await listPartitions(tx, child.name)).some((p) => p.name === partition)) continue;
      await detachPartition(tx, child.name, partition);
      detached.push(partition);
    }
    await detachPartition(tx, family.root, rootPartition);
    return [...detached, rootPartition];
  });
}

async function removeBodies(db: Kysely<Database>, now: Date, days: RetentionDays, signal?: AbortSignal) {
  const to = await idFloor(db, 'em_', keptSince(now, days.bodiesDays));
  let after = await bodiesMark(db, 'emails');
  let removed = 0;
  const stopAt = performance.now() + BODIES_RUN_MS;
  while (!signal?.aborted && performance.now() < stopAt) {
    const batch = await db.transaction().execute((tx) => removeEmailBodies(tx, after, to, BODY_BATCH, now));
    removed += batch.removed;
    if (batch.last === null) break;
    after = batch.last;
  }
  return removed;
}

export async function runRetention(
  db: Kysely<Database>,
  now: Date,
  days: RetentionDays,
  signal?: AbortSignal,
): Promise<RetentionReport> {
  const report: RetentionReport = {
    ...(await ensurePartitionsAhead(db, now)),
    dropped: [],
    busy: [],
    held: [],
    bodiesRemoved: 0,
  };
  await dropExpiredMonths(db, now, days, report);
  report.bodiesRemoved = await removeBodies(db, now, days, signal);
  return report;
}
