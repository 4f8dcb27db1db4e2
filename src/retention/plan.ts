// What retention keeps and removes, month by month: each family's partitions with their rows and
// bytes, and for each month whether the next run drops it (every row older than the family's
// retention), keeps it, or is held back by rows not yet final. `herald admin retention` prints it;
// the run (run.ts) acts on it.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { PARTITION_FAMILIES, WEBHOOK_CALLS_KEPT_DAYS, type PartitionFamily } from './families.ts';
import { countRows, holdsRowsWhere, listPartitions } from './partition-queries.ts';

const DAY = 24 * 60 * 60 * 1000;
// Below this estimate a partition is counted exactly (cheap, and fresh: an estimate waits for ANALYZE).
const EXACT_BELOW_ROWS = 100_000;

export interface RetentionDays {
  bodiesDays: number;
  eventsDays: number;
}

export interface PlannedPartition {
  table: string;
  partition: string;
  /** `2026-12` for a month, `before 2026-12` for the first partition, `later` for the DEFAULT one. */
  month: string;
  rows: number;
  bytes: number;
  /** drop: the next run removes it; keep: some of its rows are younger than retention; held: rows not final. */
  action: 'drop' | 'keep' | 'held';
  /** Rows not yet final in the root's partition (at most 1000 counted), when held. */
  held?: number;
}

export interface RetentionPlan {
  bodiesDays: number;
  eventsDays: number;
  webhookCallsDays: number;
  partitions: PlannedPartition[];
}

/** The retention of a family in days. */
export function familyDays(family: PartitionFamily, days: RetentionDays): number {
  return family.keptBy === 'webhookCalls' ? WEBHOOK_CALLS_KEPT_DAYS : days.eventsDays;
}

/** The first instant whose rows are kept. */
export const keptSince = (now: Date, days: number) => new Date(now.getTime() - days * DAY);

function monthOf(partition: string, table: string): string {
  const suffix = partition.slice(table.length + 1);
  const yyyymm = /(\d{4})(\d{2})$/.exec(suffix);
  if (suffix === 'later' || !yyyymm) return 'later';
  const month = `${yyyymm[1]}-${yyyymm[2]}`;
  return suffix.startsWith('before_') ? `before ${month}` : month;
}

/** A partition's upper bound (the first id it does not hold); null for the DEFAULT partition. */
export function upperBound(bound: string): string | null {
  return /TO \('([^']*)'\)/.exec(bound)?.[1] ?? null;
}

export async function idFloor(db: Kysely<Database>, prefix: string, at: Date): Promise<string> {
  const { rows } = await sql<{ id: string }>`SELECT herald_id_floor(${prefix}, ${at}::timestamptz) AS id`.execute(db);
  return rows[0]!.id;
}

/** Each family's partitions and what the next run at `now` does with them. */
export async function retentionPlan(db: Kysely<Database>, now: Date, days: RetentionDays): Promise<RetentionPlan> {
  const partitions: PlannedPartition[] = [];
  for (const family of PARTITION_FAMILIES) {
    const cutoff = await idFloor(db, family.prefix, keptSince(now, familyDays(family, days)));
    const tables = [family.root, ...family.children.map((c) => c.name)];
    const byName = new Map(
      (await Promise.all(tables.map((t) => listPartitions(db, t)))).flat().map((p) => [p.name, p]),
    );
    for (const root of await listPartitions(db, family.root)) {
      const upper = upperBound(root.bound);
      const expired = upper !== null && upper <= cutoff;
      const held = expired && family.notFinal ? await holdsRowsWhere(db, root.name, family.notFinal) : 0;
      const action = !expired ? 'keep' : held > 0 ? 'held' : 'drop';
      const suffix = root.name.slice(family.root.length);
      for (const table of tables) {
        const partition = byName.get(table + suffix);
        if (!partition) continue;
        const rows =
          partition.estimatedRows >= EXACT_BELOW_ROWS
            ? Math.round(partition.estimatedRows)
            : await countRows(db, partition.name);
        partitions.push({
          table,
          partition: partition.name,
          month: monthOf(partition.name, table),
          rows,
          bytes: partition.bytes,
          action,
          ...(action === 'held' ? { held } : {}),
        });
      }
    }
  }
  return { ...days, webhookCallsDays: WEBHOOK_CALLS_KEPT_DAYS, partitions };
}
