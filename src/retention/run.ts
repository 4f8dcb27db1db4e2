// A retention run (the daily chore, src/retention/README.md): month partitions made ahead, every
// month older than its family's retention dropped whole (children first, in one transaction) unless
// a row of it is not final yet, then emails' bodies past HERALD_RETENTION_BODIES_DAYS removed in
// bounded batches from where the last run stopped.
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { familyTables, PARTITION_FAMILIES } from './families.ts';
import { isDeadlock, isLockTimeout } from '../db/errors.ts';
import {
  bodiesMark,
  dropPartition,
  ensureMonthPartition,
  holdsRowsWhere,
  listPartitions,
  lockFamily,
  removeEmailBodies,
} from './partition-queries.ts';
import { familyDays, idFloor, keptSince, upperBound, type RetentionDays } from './plan.ts';

/** Months made ahead of the current one: a send at midnight never waits for its partition. */
export const MONTHS_AHEAD = 2;
const BODY_BATCH = 1_000;
/** How long a drop waits for the writes in flight; new writes wait behind it meanwhile. */
const LOCK_WAIT_MS = 2_000;
/** A run's share of bodies: a first run after an upgrade catches up over several hours, not in one. */
const BODIES_RUN_MS = 5 * 60_000;

export interface RetentionReport {
  /** Partitions that could not be made: the DEFAULT partition holds rows of their month. */
  notMade: string[];
  dropped: string[];
  /** Months not dropped because writes held their tables past LOCK_WAIT_MS (the next run tries again). */
  busy: string[];
  held: { partition: string; notFinal: number }[];
  bodiesRemoved: number;
}

/** The first day (UTC) of the month `k` months after `now`'s. */
const monthStart = (now: Date, k: number) => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + k, 1));

/** Every family's partitions of this month and the next MONTHS_AHEAD (a no-op when they exist). */
export async function ensurePartitionsAhead(db: Kysely<Database>, now: Date): Promise<string[]> {
  const notMade: string[] = [];
  for (const family of PARTITION_FAMILIES) {
    const tables = familyTables(family);
    for (let k = 0; k <= MONTHS_AHEAD; k++) {
      const month = monthStart(now, k);
      for (const table of tables) {
        if (!(await ensureMonthPartition(db, table.name, family.prefix, month, table.options, table.reference)))
          notMade.push(`${table.name} ${month.toISOString().slice(0, 7)}`);
      }
    }
  }
  return notMade;
}

async function dropExpiredMonths(db: Kysely<Database>, now: Date, days: RetentionDays, report: RetentionReport) {
  for (const family of PARTITION_FAMILIES) {
    const cutoff = await idFloor(db, family.prefix, keptSince(now, familyDays(family, days)));
    for (const root of await listPartitions(db, family.root)) {
      const upper = upperBound(root.bound);
      if (upper === null || upper > cutoff) continue;
      const notFinal = family.notFinal ? await holdsRowsWhere(db, root.name, family.notFinal) : 0;
      if (notFinal > 0) {
        report.held.push({ partition: root.name, notFinal });
        continue;
      }
      const suffix = root.name.slice(family.root.length);
      const tables = [family.root, ...family.children.map((c) => c.name)];
      const dropped = await db
        .transaction()
        .execute(async (tx) => {
          await lockFamily(tx, tables, LOCK_WAIT_MS);
          const gone: string[] = [];
          for (const child of family.children) {
            const partition = child.name + suffix;
            if (!(await listPartitions(tx, child.name)).some((p) => p.name === partition)) continue;
            await dropPartition(tx, child.name, partition);
            gone.push(partition);
          }
          await dropPartition(tx, family.root, root.name);
          return [...gone, root.name];
        })
        .catch((error: unknown) => {
          // Writes held the tables past the wait: the next run tries again.
          if (isLockTimeout(error) || isDeadlock(error)) return null;
          throw error;
        });
      if (dropped) report.dropped.push(...dropped);
      else report.busy.push(root.name);
    }
  }
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
    notMade: await ensurePartitionsAhead(db, now),
    dropped: [],
    busy: [],
    held: [],
    bodiesRemoved: 0,
  };
  await dropExpiredMonths(db, now, days, report);
  report.bodiesRemoved = await removeBodies(db, now, days, signal);
  return report;
}
