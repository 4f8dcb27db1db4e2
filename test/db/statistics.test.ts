// Herald analyses the tables that changed by more than autovacuum's default rule (PGlite has no
// autovacuum; this machine's server runs with it off): a table filled since its last ANALYZE is
// due, analysed, and then no longer due; one with a few changes is left alone, and so is one with
// fewer rows than a first analysis waits for (src/db/statistics.ts). The worker runs it every
// minute as the planner-statistics chore.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { DbHandle } from '../../src/db/connect.ts';
import { refreshStatistics, tablesDueForAnalyze } from '../../src/db/statistics.ts';
import { getTestDb } from '../support/db.ts';

const FILLED = `statistics_filled_${process.pid}`;
const QUIET = `statistics_quiet_${process.pid}`;
const SMALL = `statistics_small_${process.pid}`;
let handle: DbHandle;

/** Inserts `rows` rows, and has the connection report its counters as soon as it is idle. */
async function insert(table: string, rows: number): Promise<void> {
  await handle.db.transaction().execute(async (tx) => {
    await sql`INSERT INTO ${sql.table(table)} (n) SELECT g FROM generate_series(1, ${rows}::int) g`.execute(tx);
    await sql`SELECT pg_stat_force_next_flush()`.execute(tx);
  });
}

const reltuples = async (table: string) =>
  Number(
    (
      await sql<{ n: number }>`SELECT reltuples::float8 AS n FROM pg_class WHERE oid = to_regclass(${table})`.execute(
        handle.db,
      )
    ).rows[0]!.n,
  );

beforeAll(async () => {
  handle = await getTestDb();
  for (const table of [FILLED, QUIET, SMALL]) {
    await sql`CREATE TABLE ${sql.table(table)} (n integer NOT NULL)`.execute(handle.db);
    await sql`ANALYZE ${sql.table(table)}`.execute(handle.db);
  }
});

afterAll(async () => {
  for (const table of [FILLED, QUIET, SMALL]) await sql`DROP TABLE IF EXISTS ${sql.table(table)}`.execute(handle.db);
});

describe('planner statistics', () => {
  it('analyses a table filled since its last ANALYZE, and leaves one with a few changes or rows', async () => {
    // Past 200 pages: on PostgreSQL the analysis pauses as autovacuum's do (PGlite's backend would
    // not survive a pause).
    await insert(FILLED, 50_000);
    await insert(QUIET, 20);
    // 500 changes, but analysed empty and holding fewer than FIRST_ANALYSIS_ROWS rows.
    await insert(SMALL, 500);
    // Counters reach the statistics views once the inserting connection reports them.
    await vi.waitFor(async () => expect(await tablesDueForAnalyze(handle.db)).toContain(FILLED), {
      timeout: 10_000,
      interval: 100,
    });
    expect(await tablesDueForAnalyze(handle.db)).not.toContain(QUIET);
    expect(await tablesDueForAnalyze(handle.db)).not.toContain(SMALL);

    expect(await refreshStatistics(handle.db, handle.driver)).toContain(FILLED);
    expect(await reltuples(FILLED)).toBe(50_000);
    expect(await reltuples(QUIET)).toBe(0);
    expect(await tablesDueForAnalyze(handle.db)).not.toContain(FILLED);
  });

  it('stops at the signal, before the next table', async () => {
    await insert(FILLED, 10_000);
    await vi.waitFor(async () => expect(await tablesDueForAnalyze(handle.db)).toContain(FILLED), {
      timeout: 10_000,
      interval: 100,
    });
    expect(await refreshStatistics(handle.db, handle.driver, AbortSignal.abort())).toEqual([]);
    expect(await tablesDueForAnalyze(handle.db)).toContain(FILLED);
  });
});
