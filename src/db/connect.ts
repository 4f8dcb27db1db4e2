// One PostgreSQL dialect, two drivers: PGlite (embedded, in HERALD_DATA_DIR) when DATABASE_URL is
// unset, node-postgres when it is set. Both return int8 as bigint and timestamptz as Date so that
// code above this file never knows which one it runs on.
import { PGlite } from '@electric-sql/pglite';
import { Kysely, PGliteDialect, PostgresDialect } from 'kysely';
import pg from 'pg';
import { preparingPool } from './prepared-pool.ts';
import type { Database } from './schema.ts';

const INT8 = 20;
const INT8_ARRAY = 1016;

type DbDriver = 'pglite' | 'pg';

export interface DbHandle {
  db: Kysely<Database>;
  driver: DbDriver;
  /** Subscribe to a NOTIFY channel; returns the unsubscribe function. */
  listen(channel: string, onNotify: (payload: string) => void): Promise<() => Promise<void>>;
  /** Runs a multi-statement SQL script as one implicit transaction (migrations). */
  execScript(script: string): Promise<void>;
  close(): Promise<void>;
}

interface ConnectOptions {
  databaseUrl: string | null;
  /** PGlite data directory; null keeps the embedded database in memory (tests). */
  dataDir: string | null;
  poolSize?: number;
}

export async function connectDatabase(options: ConnectOptions): Promise<DbHandle> {
  return options.databaseUrl === null
    ? connectPglite(options.dataDir)
    : connectPostgres(options.databaseUrl, options.poolSize ?? 10);
}

async function connectPglite(dataDir: string | null): Promise<DbHandle> {
  const pglite = await PGlite.create(dataDir ?? undefined, {
    parsers: { [INT8]: (value: string) => BigInt(value) },
  });
  const db = new Kysely<Database>({ dialect: new PGliteDialect({ pglite }) });
  return {
    db,
    driver: 'pglite',
    async listen(channel, onNotify) {
      const unsubscribe = await pglite.listen(channel, onNotify);
      return async () => unsubscribe();
    },
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

async function connectPostgres(databaseUrl: string, poolSize: number): Promise<DbHandle> {
  const types = {
    getTypeParser(oid: number, format?: 'text' | 'binary') {
      if (oid === INT8) return (value: string) => BigInt(value);
      if (oid === INT8_ARRAY) return parseBigIntArray;
      return pg.types.getTypeParser(oid, format);
    },
  };
  const pool = new pg.Pool({ connectionString: databaseUrl, max: poolSize, types });
  pool.on('error', () => {
    // An idle client lost its connection; the pool replaces it. Queries report their own errors.
  });
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: preparingPool(pool) }) });
  const listeners: pg.Client[] = [];
  return {
    db,
    driver: 'pg',
    async listen(channel, onNotify) {
      // A dedicated connection: LISTEN is per session and a pooled client would lose it.
      const client = new pg.Client({ connectionString: databaseUrl, types });
      client.on('error', () => {});
      await client.connect();
      client.on('notification', (message) => {
        if (message.channel === channel) onNotify(message.payload ?? '');
      });
      await client.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
      listeners.push(client);
      return async () => {
        listeners.splice(listeners.indexOf(client), 1);
        await client.end().catch(() => {});
      };
    },
    async execScript(script) {
      await pool.query(script);
    },
    async close() {
      await Promise.all(listeners.splice(0).map((client) => client.end().catch(() => {})));
      await db.destroy();
    },
  };
}
