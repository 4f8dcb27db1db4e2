// One migrated database per test worker (vitest runs files of a worker in one process, isolate off).
// PGlite in memory by default; with DATABASE_URL, a database of its own per worker on that server,
// created fresh by test/support/global-setup.ts.
import { connectDatabase, type DbHandle } from '../../src/db/connect.ts';
import { migrate } from '../../src/db/migrate.ts';

let shared: Promise<DbHandle> | null = null;

export function workerDatabaseUrl(base: string, poolId: string | number): string {
  const url = new URL(base);
  const name = url.pathname.replace(/^\//, '') || 'postgres';
  url.pathname = `/${name}_w${poolId}`;
  return url.toString();
}

export function testDatabaseUrl(): string | null {
  const base = process.env.DATABASE_URL;
  if (!base) return null;
  return workerDatabaseUrl(base, process.env.VITEST_POOL_ID ?? '1');
}

/** The worker's database, connected and migrated once. Do not close it in a test. */
export function getTestDb(): Promise<DbHandle> {
  shared ??= (async () => {
    const handle = await connectDatabase({ databaseUrl: testDatabaseUrl(), dataDir: null, poolSize: 8 });
    await migrate(handle);
    return handle;
  })();
  return shared;
}
