// For process tests with DATABASE_URL: a fresh database on that server for one test, and a way to
// drop it afterwards (the processes under test open it by URL, as a deployment would).
import pg from 'pg';

export async function freshPostgresDatabase(
  base: string,
  label: string,
): Promise<{ url: string; drop: () => Promise<void> }> {
  const url = new URL(base);
  const name = `${url.pathname.replace(/^\//, '') || 'postgres'}_${label}_${process.pid}`;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: base });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await admin(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(name)} WITH (FORCE)`);
  await admin(`CREATE DATABASE ${pg.escapeIdentifier(name)}`);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () => admin(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(name)} WITH (FORCE)`),
  };
}

const testDatabaseDrops: (() => Promise<void>)[] = [];

/**
 * With DATABASE_URL, a fresh database on that server for this test, its URL; without, null (the
 * processes use the embedded one in their data directory). dropTestDatabases() in afterEach drops it.
 */
export async function testDatabaseUrl(label: string): Promise<string | null> {
  const base = process.env.DATABASE_URL;
  if (base === undefined || base === '') return null;
  const fresh = await freshPostgresDatabase(base, label);
  testDatabaseDrops.push(fresh.drop);
  return fresh.url;
}

/** Drops the databases testDatabaseUrl() made; for afterEach, after the processes using them ended. */
export async function dropTestDatabases(): Promise<void> {
  for (const drop of testDatabaseDrops.splice(0)) await drop();
}
