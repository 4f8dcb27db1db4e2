// The planner's statistics, kept by Herald itself: PGlite has no autovacuum and a server may run
// with it off, yet every plan depends on them. A table is analysed once it changed by more than
// autovacuum's own default rule (50 rows plus a tenth of its rows), so a server whose autovacuum
// keeps up leaves nothing to do here. It matters most for a month partition: it starts empty, and
// a plan made then (a prepared statement, a foreign-key check, keeps its plan until the table's
// statistics change) reads it by sequential scan once it holds a minute of sends.
import { sql, type Kysely } from 'kysely';
import type { DbDriver } from './handle.ts';
import type { Database } from './schema.ts';

/**
 * A table without statistics is first analysed once it holds this many rows. Below it, the planner
 * takes a table never analysed for at least 10 pages, and looks rows up by index; analysed with a
 * few dozen rows, it reads them by sequential scan, and keeps doing so as the table fills until the
 * next analysis. Month partitions tell autovacuum the same (retention/families.ts).
 */
export const FIRST_ANALYSIS_ROWS = 1_000;

/** Tables (and partitions) whose changes since their last ANALYZE pass autovacuum's default rule. */
export async function tablesDueForAnalyze(db: Kysely<Database>): Promise<string[]> {
  // Partitioned parents are left out: an ANALYZE of one analyses every partition again.
  const { rows } = await sql<{ name: string }>`
    SELECT c.relname AS name
    FROM pg_class c JOIN pg_stat_user_tables s ON s.relid = c.oid
    WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind = 'r'
      AND s.n_mod_since_analyze > 50 + 0.1 * greatest(c.reltuples, 0)
      AND (c.reltuples > 0 OR s.n_live_tup >= ${FIRST_ANALYSIS_ROWS})
    ORDER BY s.n_mod_since_analyze DESC`.execute(db);
  return rows.map((r) => r.name);
}

/**
 * Analyses the tables due, most changed first, until `signal` ends the run; answers those analysed.
 * On PostgreSQL each is paced as autovacuum paces its own (2 ms pauses): a month partition's sample
 * is 30,000 pages, read beside the sends rather than ahead of them. PGlite serves one statement at
 * a time (nothing to pace for), and its backend dies in that pause.
 */
export async function refreshStatistics(
  db: Kysely<Database>,
  driver: DbDriver,
  signal?: AbortSignal,
): Promise<string[]> {
  const analysed: string[] = [];
  for (const table of await tablesDueForAnalyze(db)) {
    if (signal?.aborted) break;
    try {
      await db.transaction().execute(async (tx) => {
        if (driver === 'pg') await sql`SET LOCAL vacuum_cost_delay = '2ms'`.execute(tx);
        await sql`ANALYZE ${sql.table(table)}`.execute(tx);
      });
      analysed.push(table);
    } catch (error) {
      // Dropped since the list was read (retention drops whole months).
      if ((error as { code?: string }).code !== '42P01') throw error;
    }
  }
  return analysed;
}
