// The PostgreSQL database the benchmarks use (BENCH_DATABASE_URL), created when missing, and the
// databases of their own that some benchmarks make for each run.
import pg from 'pg';

export const BENCH_DATABASE_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/herald_bench';

/** Runs `work` on the server of `url`, connected to its `postgres` database, with the name `url` gives (raw and quoted). */
async function onServer(
  url: string,
  work: (admin: pg.Client, name: { raw: string; quoted: string }) => Promise<void>,
): Promise<void> {
  const target = new URL(url);
  const name = target.pathname.slice(1);
  target.pathname = '/postgres';
  const admin = new pg.Client({ connectionString: target.toString() });
  await admin.connect();
  try {
    await work(admin, { raw: name, quoted: pg.escapeIdentifier(name) });
  } finally {
    await admin.end();
  }
}

export async function ensureDatabase(url: string = BENCH_DATABASE_URL): Promise<void> {
  await onServer(url, async (admin, name) => {
    const exists = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name.raw]);
    if (exists.rowCount === 0) await admin.query(`CREATE DATABASE ${name.quoted}`);
  });
}

/** An empty database at `url`, made again if it exists (its connections ended first). */
export async function freshDatabase(url: string): Promise<void> {
  await dropDatabase(url);
  await ensureDatabase(url);
}

export async function dropDatabase(url: string): Promise<void> {
  await onServer(url, async (admin, name) => {
    await admin.query(`DROP DATABASE IF EXISTS ${name.quoted} WITH (FORCE)`);
  });
}
