// The scale benchmark's settings and its database: made afresh on every run, migrated, then given the
// partitions of a deployment that has run for a year, and the team every measurement uses.
import { sql, type Kysely } from 'kysely';
import pino from 'pino';
import type { Database } from '../../src/db/schema.ts';
import type { Clock } from '../../src/platform/clock.ts';
import { BENCH_DATABASE_URL, freshDatabase } from '../database.ts';
import { BENCH_SECRET } from '../herald-app.ts';

export const SCALE_DATABASE_URL =
  process.env.BENCH_SCALE_DATABASE_URL ?? BENCH_DATABASE_URL.replace(/\/[^/]*$/, '/herald_bench_scale');
/** The large team's emails (events: three times as many). */
export const LARGE_EMAILS = Number(process.env.BENCH_SCALE_EMAILS ?? 10_000_000);
export const SMALL_EMAILS = Number(process.env.BENCH_SCALE_SMALL ?? 10_000);
/** QUEUED emails waiting when the large team's delivery is measured (1,000,000 at the default size). */
export const LARGE_BACKLOG = Number(process.env.BENCH_SCALE_BACKLOG ?? Math.round(LARGE_EMAILS / 10));
export const SMALL_BACKLOG = 2_000;
/** Months of history before the current one. */
export const MONTHS = 12;
export const TEAM_NAME = 'bench-scale';
/** Far beyond the history, so the list and the email reads see all of it (retention is run by hand). */
export const KEPT_DAYS = 400;

export const DAY_MS = 24 * 60 * 60 * 1000;
/** The first day (UTC) of the month `k` months after `at`'s. */
export const monthStart = (at: Date, k: number) => new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + k, 1));
export const yyyymm = (month: Date) => month.toISOString().slice(0, 7).replace('-', '');
export const count = (n: number) => Math.round(n).toLocaleString('en-US');

/** The config of every Herald this benchmark builds (parent and server child alike: keys verify in both). */
export async function scaleConfig() {
  const { loadConfig } = await import('../../src/config.ts');
  const base = loadConfig({});
  return {
    ...base,
    databaseUrl: SCALE_DATABASE_URL,
    secret: BENCH_SECRET,
    adminToken: null,
    logLevel: 'silent' as const,
    retention: { ...base.retention, eventsDays: KEPT_DAYS },
  };
}

export async function scaleDeps(clock?: Clock) {
  const { buildDeps } = await import('../../src/build-deps.ts');
  const config = await scaleConfig();
  return { config, deps: await buildDeps(config, { logger: pino({ level: 'silent' }), ...(clock ? { clock } : {}) }) };
}

/** Drops and creates the database: every run starts from a fresh one (partitions named by today's month). */
export function recreateDatabase(): Promise<void> {
  return freshDatabase(SCALE_DATABASE_URL);
}

/**
 * A fresh database's first partitions (`<table>_before_<next month>`) hold everything up to next
 * month, so a year of history would sit in one partition no retention run could drop. This mimics the
 * months the retention chore would have made had Herald run for a year: for every partitioned table
 * (src/retention/families.ts, roots and children alike) the first partition is detached and dropped
 * (it is empty), a new one ends where the month 12 months ago begins, and each month from then to the
 * current one gets its own partition (herald_month_partition, with the table's storage options).
 */
export async function partitionLikeAYear(db: Kysely<Database>, now: Date): Promise<void> {
  const { familyTables, PARTITION_FAMILIES } = await import('../../src/retention/families.ts');
  const { listPartitions, dropPartition, ensureMonthPartition } =
    await import('../../src/retention/partition-queries.ts');
  const { idFloor } = await import('../../src/retention/plan.ts');
  const first = monthStart(now, -MONTHS);
  for (const family of PARTITION_FAMILIES) {
    // The root first: each child partition references the root's of its month.
    const tables = familyTables(family);
    await db.transaction().execute(async (tx) => {
      // Children first, as retention drops them.
      for (const table of [...tables].reverse()) {
        for (const p of await listPartitions(tx, table.name)) {
          if (/^_before_\d{6}$/.test(p.name.slice(table.name.length))) await dropPartition(tx, table.name, p.name);
        }
      }
      // DDL takes no parameters: the bound is read first and written as a literal.
      const bound = await idFloor(tx, family.prefix, first);
      for (const table of tables) {
        const name = `${table.name}_before_${yyyymm(first)}`;
        const options = table.options ? sql.raw(` WITH (${table.options})`) : sql.raw('');
        await sql`CREATE TABLE ${sql.table(name)} PARTITION OF ${sql.table(table.name)}
          FOR VALUES FROM (MINVALUE) TO (${sql.lit(bound)})${options}`.execute(tx);
        if (table.reference)
          await sql`SELECT herald_partition_reference(${name}, ${table.reference.column}, ${`${family.root}_before_${yyyymm(first)}`})`.execute(
            tx,
          );
        for (let k = -MONTHS; k <= 0; k++)
          await ensureMonthPartition(tx, table.name, family.prefix, monthStart(now, k), table.options, table.reference);
      }
    });
  }
}

/**
 * Bodies older than the newest month were removed long ago in such a deployment: the retention mark
 * stands at the start of the newest month of history, so a run reads on from there (and not through
 * the year's emails from the first id, which only a first run ever does).
 */
export async function markBodiesRemoved(db: Kysely<Database>, now: Date): Promise<void> {
  await sql`INSERT INTO retention_marks (name, bodies_upto)
    VALUES ('emails', herald_id_floor('em_', ${monthStart(now, -1)}::timestamptz))
    ON CONFLICT (name) DO UPDATE SET bodies_upto = excluded.bodies_upto`.execute(db);
}
