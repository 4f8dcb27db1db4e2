// What a query function runs on: the database, or the caller's transaction (so the caller decides
// what commits together); and the connected database as connect.ts hands it out.
import type { Kysely, PostgresPool, Transaction } from 'kysely';
import type { Database } from './schema.ts';

export type Db = Kysely<Database> | Transaction<Database>;

export type DbDriver = 'pglite' | 'pg';

export interface DbHandle {
  db: Kysely<Database>;
  driver: DbDriver;
  /** The primary's pool as Kysely takes it (node-postgres only): read routing falls back to it. */
  pgPool?: PostgresPool;
  /**
   * Subscribe to a NOTIFY channel; returns the unsubscribe function. `onResume` runs after the
   * listening connection was lost and came back: notifications sent meanwhile were missed.
   */
  listen(
    channel: string,
    onNotify: (payload: string) => void,
    options?: { onResume?: () => void },
  ): Promise<() => Promise<void>>;
  /** False while the listening connection is down (/readyz answers 503). */
  listening(): boolean;
  /** Runs a multi-statement SQL script as one implicit transaction (migrations). */
  execScript(script: string): Promise<void>;
  /**
   * The migrations a new embedded data directory came with (a copy of the migrated template,
   * embedded-template.ts): the next migrate() reports them as applied.
   */
  seededMigrations?: string[] | undefined;
  close(): Promise<void>;
}
