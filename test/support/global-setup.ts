// With DATABASE_URL set, (re)creates one empty database per test worker before the run. Makes the
// embedded template if a migration changed since `npm install` made it: the process tests start many
// new data directories.
import pg from 'pg';
import { makeEmbeddedTemplate } from '../../src/db/connect.ts';
import { workerDatabaseUrl } from './db.ts';

export const MAX_WORKERS = 2;

export default async function setup(): Promise<void> {
  await makeEmbeddedTemplate();
  const base = process.env.DATABASE_URL;
  if (!base) return;
  const client = new pg.Client({ connectionString: base });
  await client.connect();
  try {
    for (let id = 1; id <= MAX_WORKERS; id++) {
      const name = new URL(workerDatabaseUrl(base, id)).pathname.slice(1);
      await client.query(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(name)} WITH (FORCE)`);
      await client.query(`CREATE DATABASE ${pg.escapeIdentifier(name)}`);
    }
  } finally {
    await client.end();
  }
}
