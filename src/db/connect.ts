// One PostgreSQL dialect, two drivers: PGlite (embedded, in HERALD_DATA_DIR) when DATABASE_URL is
// unset, node-postgres when it is set. Both return int8 as bigint and timestamptz as Date so that
// code above this file never knows which one it runs on.
import { PGlite } from '@electric-sql/pglite';
import { Kysely, PGliteDialect, PostgresDialect } from 'kysely';
import pg from 'pg';
import { withoutPasswords } from '../config-error.ts';
import { StartupProblem } from '../startup-problem.ts';
import { makeDataDirPrivate } from './data-dir-privacy.ts';
import { makeTemplate, seedFromTemplate } from './embedded-template.ts';
import { listMigrations, migrate } from './migrate.ts';
import { PgListener, type ListenerLogger } from './pg-listener.ts';
import { oneUnitPerTurn } from './pglite-turns.ts';
import { preparingPool } from './prepared-pool.ts';
import type { DbHandle } from './handle.ts';
import type { Database } from './schema.ts';

const INT8 = 20;
const INT8_ARRAY = 1016;
/** PostgreSQL zero-fills its shared memory at every start: PGlite's default 128 MB of shared buffers was a third
 * of a start (bench/RESULTS.md, Start). One process uses them, and the OS caches its files. */
export const EMBEDDED_SETTINGS = ['-c', 'shared_buffers=32MB'];

export type { DbDriver, DbHandle } from './handle.ts';

interface ConnectOptions {
  databaseUrl: string | null;
  /** PGlite data directory; null keeps the embedded database in memory (tests). */
  dataDir: string | null;
  poolSize?: number;
  /** Where the PostgreSQL listener reports losing and regaining its connection. */
  logger?: ListenerLogger;
}

export async function connectDatabase(options: ConnectOptions): Promise<DbHandle> {
  return options.databaseUrl === null
    ? connectPglite(options.dataDir)
    : connectPostgres(options.databaseUrl, options.poolSize ?? 10, options.logger);
}

async function connectPglite(dataDir: string | null): Promise<DbHandle> {
  const seeded = dataDir === null ? null : seedFromTemplate(dataDir, listMigrations());
  const handle = await openPglite(dataDir);
  handle.seededMigrations = seeded ?? undefined;
  return handle;
}

/** The templates new embedded data directories are copied from (`npm install` makes them); the migrated one's folder, or null. */
export function makeEmbeddedTemplate(where: { root?: string } = {}): Promise<string | null> {
  return makeTemplate(
    listMigrations(),
    async (dir, options) => {
      const handle = await openPglite(dir);
      try {
        if (options.migrate) await migrate(handle);
      } finally {
        await handle.close();
      }
    },
    where,
  );
}

async function openPglite(dataDir: string | null): Promise<DbHandle> {
  const pglite = await PGlite.create(dataDir ?? undefined, {
    parsers: { [INT8]: (value: string) => BigInt(value) },
    startParams: [...PGlite.defaultStartParams, ...EMBEDDED_SETTINGS],
  });
  // A first start unpacks PGlite's initial files with mode 0666: owner-only, like the rest.
  if (dataDir !== null) makeDataDirPrivate(dataDir);
  const db = new Kysely<Database>({ dialect: new PGliteDialect({ pglite: oneUnitPerTurn(pglite) }) });
  return {
    db,
    driver: 'pglite',
    async listen(channel, onNotify) {
      const unsubscribe = await pglite.listen(channel, onNotify);
      return async () => unsubscribe();
    },
    listening: () => true,
    async execScript(script) {
      await pglite.exec(script);
    },
    async close() {
      await db.destroy();
      if (!pglite.closed) await pglite.close();
    },
  };
}

function parseBigIntArray(value: string): bigint[] {
  return value === '{}'
    ? []
    : value
        .slice(1, -1)
        .split(',')
        .map((v) => BigInt(v));
}

const pgTypes = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === INT8) return (value: string) => BigInt(value);
    if (oid === INT8_ARRAY) return parseBigIntArray;
    return pg.types.getTypeParser(oid, format);
  },
};

/** A pool of node-postgres connections as Herald uses them (the primary's, or a replica's). */
export function createPgPool(databaseUrl: string, poolSize: number): pg.Pool {
  // JIT off: the coalesced statements (jsonb_to_recordset, estimated at 100 rows, times their
  // subqueries) pass jit_above_cost once tables grow, and compiling them cost far more than running them.
  // TCP keepalive probes from 10 s idle: an idle connection whose server vanished without a word (a
  // failover) is dropped after the system's probes fail, not kept half open past the two-hour default.
  const pool = new pg.Pool({
    connectionString: databaseUrl,
    max: poolSize,
    types: pgTypes,
    options: '-c jit=off',
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
  });
  pool.on('error', () => {
    // An idle client lost its connection; the pool replaces it. Queries report their own errors.
  });
  pool.on('connect', (client) => {
    // While a client is checked out pg-pool listens for nothing, and a backend that dies between two
    // statements (a restart, a failover, pg_terminate_backend) emits 'error': with no listener that
    // ends the process. Here the next statement fails instead (the caller's catch runs) and the pool
    // drops the client on release (it is no longer queryable).
    client.on('error', () => {});
  });
  return pool;
}

async function connectPostgres(databaseUrl: string, poolSize: number, logger?: ListenerLogger): Promise<DbHandle> {
  const pool = createPgPool(databaseUrl, poolSize);
  await reachable(pool, databaseUrl);
  const pgPool = preparingPool(pool);
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: pgPool }) });
  const listener = new PgListener({ connectionString: databaseUrl, types: pgTypes }, logger);
  return {
    db,
    driver: 'pg',
    pgPool,
    listen: (channel, onNotify, options = {}) => listener.listen(channel, { onNotify, onResume: options.onResume }),
    listening: () => listener.listening,
    async execScript(script) {
      await pool.query(script);
    },
    async close() {
      await listener.close();
      await db.destroy();
    },
  };
}

/**
 * One query at open, so that a wrong host, database or password is one line naming DATABASE_URL.
 * The URL itself is never shown, whatever its form: a password that is not percent-encoded (a space)
 * defeats any masking.
 */
export async function reachable(pool: pg.Pool, databaseUrl: string, variable = 'DATABASE_URL'): Promise<void> {
  try {
    await pool.query('SELECT 1');
  } catch (error) {
    await pool.end().catch(() => {});
    const reason = withoutPasswords((error as Error).message);
    throw new StartupProblem(
      `cannot reach the database ${databaseTarget(databaseUrl)} (${reason}); check ${variable}`,
      1,
      error,
    );
  }
}

/** Where DATABASE_URL points, without its user name or password: `at host 127.0.0.1, port 1, database herald`. */
function databaseTarget(databaseUrl: string): string {
  try {
    const url = new URL(databaseUrl);
    const database = decodeURIComponent(url.pathname.replace(/^\//, ''));
    return `at host ${url.hostname || '(default)'}, port ${url.port || '(default)'}, database ${database || '(default)'}`;
  } catch {
    return 'named by DATABASE_URL';
  }
}
