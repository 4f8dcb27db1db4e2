// Plain numbered SQL migrations (src/db/migrations/NNNN_name.sql), each applied in its own
// transaction and recorded in schema_migrations. A session-level advisory lock keeps two processes
// starting at once against one PostgreSQL from applying the same file twice. A shipped migration is
// never edited: a change is a new file.
import fs from 'node:fs';
import path from 'node:path';
import { sql, type Kysely } from 'kysely';
import { StartupProblem } from '../startup-problem.ts';
import type { DbHandle } from './handle.ts';
import type { Database } from './schema.ts';

const MIGRATIONS_DIR = path.join(import.meta.dirname, 'migrations');
const LOCK_ID = 7_240_115; // any constant shared by every Herald process

interface Migration {
  version: number;
  name: string;
  sql: string;
}

let bundled: Migration[] | null = null;

/** The migrations shipped with the code (read once; /readyz asks on every probe). */
export function listMigrations(): Migration[] {
  bundled ??= readMigrations(MIGRATIONS_DIR);
  return bundled;
}

function readMigrations(dir: string): Migration[] {
  return fs
    .readdirSync(dir)
    .filter((file) => /^\d{4}_[\w-]+\.sql$/.test(file))
    .sort()
    .map((file) => ({
      version: Number(file.slice(0, 4)),
      name: file.replace(/\.sql$/, ''),
      sql: fs.readFileSync(path.join(dir, file), 'utf8'),
    }));
}

async function ensureTable(db: Kysely<Database>): Promise<void> {
  await sql`CREATE TABLE IF NOT EXISTS schema_migrations (
    version integer PRIMARY KEY,
    name text NOT NULL,
    applied_at timestamptz NOT NULL DEFAULT now()
  )`.execute(db);
}

/** Applies every pending migration; returns the names applied (with those a new data directory came with). */
export async function migrate(handle: DbHandle): Promise<string[]> {
  const { db } = handle;
  const migrations = listMigrations();
  return db.connection().execute(async (conn) => {
    await sql`SELECT pg_advisory_lock(${LOCK_ID})`.execute(conn);
    try {
      await ensureTable(conn);
      const rows = await conn.selectFrom('schema_migrations').select(['version', 'name']).execute();
      refuseSquashedChain(rows, migrations);
      const applied = new Set(rows.map((r) => r.version));
      const done = [...(handle.seededMigrations ?? [])];
      handle.seededMigrations = undefined;
      for (const migration of migrations) {
        if (applied.has(migration.version)) continue;
        // One script, one implicit transaction: the migration and its record land together or not at all.
        await handle.execScript(
          `${migration.sql};\nINSERT INTO schema_migrations (version, name) VALUES (${migration.version}, '${migration.name}');`,
        );
        done.push(migration.name);
      }
      return done;
    } finally {
      await sql`SELECT pg_advisory_unlock(${LOCK_ID})`.execute(conn);
    }
  });
}

/**
 * The migrations before the one-per-area baselines were squashed away before any release: a database
 * they made lists names no file has at versions the files cover. Applying the baselines on top of it
 * would half-apply, so it stops here with what to do. (Versions above the newest file are left
 * alone, as before: a newer Herald's.)
 */
function refuseSquashedChain(applied: { version: number; name: string }[], migrations: Migration[]): void {
  const shipped = new Map(migrations.map((m) => [m.version, m.name]));
  const newest = Math.max(0, ...shipped.keys());
  const unknown = applied.filter((r) => shipped.get(r.version) !== r.name);
  if (!unknown.some((r) => r.version <= newest)) return;
  const names = unknown
    .map((r) => r.name)
    .sort()
    .slice(0, 3)
    .join(', ');
  throw new StartupProblem(
    `the database was migrated by migrations this Herald no longer ships (${names}${unknown.length > 3 ? ', …' : ''}): they were squashed into one per area before any release, so it cannot be upgraded; drop the database (or delete the data directory) and start again`,
    2,
  );
}

/** Migrations in the code that the database has not applied yet (for /readyz). */
export async function pendingMigrations(db: Kysely<Database>): Promise<string[]> {
  const rows = await sql<{ version: number }>`SELECT version FROM schema_migrations`.execute(db);
  const applied = new Set(rows.rows.map((r) => r.version));
  return listMigrations()
    .filter((m) => !applied.has(m.version))
    .map((m) => m.name);
}
