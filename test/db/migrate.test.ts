// Migrations on a database of their own (not the worker's shared one): a fresh database takes the
// baselines once; one migrated by the migrations squashed before any release stops with one line
// saying what to do, and nothing is applied.
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { connectDatabase, type DbHandle } from '../../src/db/connect.ts';
import { listMigrations, migrate } from '../../src/db/migrate.ts';
import { StartupProblem } from '../../src/startup-problem.ts';
import { freshPostgresDatabase } from '../support/fresh-database.ts';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** An empty database: PGlite in memory, or with DATABASE_URL a fresh one on that server. */
async function emptyDatabase(): Promise<DbHandle> {
  const base = process.env.DATABASE_URL;
  let url: string | null = null;
  if (base !== undefined && base !== '') {
    const fresh = await freshPostgresDatabase(base, 'migrate');
    cleanups.push(fresh.drop);
    url = fresh.url;
  }
  const handle = await connectDatabase({ databaseUrl: url, dataDir: null, poolSize: 2 });
  cleanups.push(() => handle.close());
  return handle;
}

const tableExists = async (handle: DbHandle, name: string) =>
  (await sql<{ found: string | null }>`SELECT to_regclass(${name})::text AS found`.execute(handle.db)).rows[0]!
    .found !== null;

// PGlite applies the baselines in seconds alone, far slower on a loaded machine.
describe('migrate', { timeout: 180_000 }, () => {
  it('applies every baseline to a fresh database, then nothing', async () => {
    const handle = await emptyDatabase();
    expect(await migrate(handle)).toEqual(listMigrations().map((m) => m.name));
    expect(await migrate(handle)).toEqual([]);
    expect(await tableExists(handle, 'journey_runs')).toBe(true);
  });

  it('stops on a database migrated by the squashed migrations, naming them and what to do', async () => {
    const handle = await emptyDatabase();
    // The bookkeeping of the chain before the baselines: a name shared with a baseline, then others.
    await handle.execScript(`
      CREATE TABLE schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now());
      INSERT INTO schema_migrations (version, name) VALUES
        (1, '0001_platform'), (5, '0005_outbox'), (9, '0009_usage_shards'), (14, '0014_email_daily_stats'),
        (18, '0018_one_open_event'), (44, '0044_journey_runs_awaiting_emails');`);
    const failure = await migrate(handle).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(StartupProblem);
    const { message, exitCode } = failure as StartupProblem;
    expect(exitCode).toBe(2);
    expect(message).not.toContain('\n');
    expect(message).toMatch(/no longer ships \(0005_outbox, 0009_usage_shards, 0014_email_daily_stats, …\)/);
    expect(message).toMatch(/drop the database \(or delete the data directory\)/);
    // Nothing applied: no baseline's table, no new bookkeeping row.
    expect(await tableExists(handle, 'domains')).toBe(false);
    const rows = await handle.db.selectFrom('schema_migrations').select('version').execute();
    expect(rows).toHaveLength(6);
  });
});
