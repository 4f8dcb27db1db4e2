// Helpers for the queue tests: a job table of the test's own (files share the worker database),
// promises to wait on instead of sleeping, and a second connection where the driver allows one.
import { randomBytes } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import { connectDatabase, type DbHandle } from '../../src/db/connect.ts';
import type { Database } from '../../src/db/schema.ts';
import { defineQueue, type QueueOptions, type SqlExecutor } from '../../src/queue/index.ts';

import { getTestDb, testDatabaseUrl } from '../support/db.ts';

export interface TestJob {
  id: bigint;
  status: string;
  run_at: Date;
  lease_until: Date | null;
  attempts: number;
  last_error: string | null;
  payload: string | null;
}

export function uniqueName(prefix: string): string {
  return `${prefix}_${randomBytes(5).toString('hex')}`;
}

/** Creates an empty job table shaped like a product table (status, due time, lease, attempts). */
export async function createJobTable(db: Kysely<Database>, prefix = 'test_jobs'): Promise<string> {
  const table = uniqueName(prefix);
  await sql`CREATE TABLE IF NOT EXISTS ${sql.table(table)} (
    id bigserial PRIMARY KEY,
    status text NOT NULL DEFAULT 'QUEUED',
    run_at timestamptz NOT NULL,
    lease_until timestamptz,
    attempts integer NOT NULL DEFAULT 0,
    last_error text,
    payload text
  )`.execute(db);
  await sql`CREATE INDEX ON ${sql.table(table)} (run_at) WHERE status = 'QUEUED'`.execute(db);
  return table;
}

/** Inserts `count` jobs due at `runAt` with one statement; returns their ids in order. */
export async function seedJobs(
  db: SqlExecutor,
  table: string,
  count: number,
  runAt: Date,
  payload = '',
): Promise<bigint[]> {
  const result = await sql<{ id: bigint }>`
    INSERT INTO ${sql.table(table)} (run_at, payload)
    SELECT ${runAt}::timestamptz, ${payload} || g FROM generate_series(1, ${count}) AS g
    RETURNING id`.execute(db);
  return result.rows.map((row) => row.id).sort((a, b) => (a < b ? -1 : 1));
}

/** Inserts one job (payload gets the suffix 1, as with seedJobs) and returns its id. */
export async function seedJob(db: Kysely<Database>, table: string, runAt: Date, payload = ''): Promise<bigint> {
  const [id] = await seedJobs(db, table, 1, runAt, payload);
  if (id === undefined) throw new Error('insert returned no id');
  return id;
}

export async function readJobs(db: Kysely<Database>, table: string): Promise<TestJob[]> {
  const result = await sql<TestJob>`SELECT * FROM ${sql.table(table)} ORDER BY id`.execute(db);
  return result.rows;
}

/** A test queue over `table`: done -> DONE, failed -> FAILED, retries keep their last error. */
export function testQueue(table: string, options: Partial<QueueOptions<TestJob>>) {
  return defineQueue<TestJob>({
    name: table,
    table,
    dueColumn: 'run_at',
    readyWhere: sql`status = 'QUEUED'`,
    onDone: sql`status = 'DONE'`,
    onRetry: sql`last_error = job_error`,
    onFailed: sql`status = 'FAILED', last_error = job_error`,
    ...options,
  });
}

export interface Deferred<T> {
  promise: Promise<T>;
  resolve(value: T): void;
}

export function deferred<T = void>(): Deferred<T> {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

/** Rejects if `promise` has not settled within ms: a bound on a wait, never a pause. */
export async function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms waiting for ${what}`)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Re-checks `condition` (e.g. a query) until it holds; for state the runner writes after a handler returns. */
export async function until(condition: () => Promise<boolean>, what: string, ms = 5_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/**
 * A second handle to the worker database: its own pool and LISTEN connection on PostgreSQL, as a
 * second worker process would have. PGlite is one in-process instance, so there it is the same handle.
 */
export async function secondHandle(): Promise<{ handle: DbHandle; close(): Promise<void> }> {
  const url = testDatabaseUrl();
  if (url === null) return { handle: await getTestDb(), close: async () => {} };
  const handle = await connectDatabase({ databaseUrl: url, dataDir: null, poolSize: 4 });
  return { handle, close: () => handle.close() };
}
