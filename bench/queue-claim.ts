// Queue throughput: jobs/s claimed and completed by two workers with batches of 50, on PostgreSQL
// (two child processes, each with its own pool, as two `herald worker`s would run) and on PGlite
// (one process, two runners: PGlite is a single in-process instance). The baseline, measured in the
// same run on the same table, is the bare minimum a worker must write: one plain
// `UPDATE ... WHERE id = ANY(batch)` per 50 rows, with no claim, lease or SKIP LOCKED.
//
//   npm exec -- node bench/queue-claim.ts            both drivers
//   npm exec -- node bench/queue-claim.ts pg|pglite  one of them
// Env: BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/herald_bench, created if
// missing), BENCH_ROWS (100000), BENCH_PGLITE_ROWS (20000), BENCH_CONCURRENCY (batches in flight
// per worker, 2).
import { fork, type ChildProcess } from 'node:child_process';
import { sql } from 'kysely';
import { connectDatabase, type DbHandle } from '../src/db/connect.ts';
import { defineQueue, QueueRunner, type JobOutcome } from '../src/queue/index.ts';
import { BENCH_DATABASE_URL, ensureDatabase } from './database.ts';
import { machineLine, writeSection } from './results.ts';

const TABLE = 'bench_jobs';
const BATCH = 50;
const WORKERS = 2;
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 2);
const PG_URL = BENCH_DATABASE_URL;

interface BenchJob {
  id: bigint;
}

const benchQueue = (onHandled: (count: number) => void) =>
  defineQueue<BenchJob>({
    name: 'bench',
    table: TABLE,
    dueColumn: 'run_at',
    readyWhere: sql`status = 'QUEUED'`,
    batchSize: BATCH,
    concurrency: CONCURRENCY,
    idType: 'bigint',
    handleBatch: async (rows) => {
      onHandled(rows.length);
      return rows.map((row): JobOutcome => ({ id: row.id, outcome: 'done' }));
    },
    onDone: sql`status = 'DONE'`,
    onFailed: sql`status = 'FAILED'`,
  });

/** The baseline's unit of work: mark one batch done by id, nothing else. */
async function plainUpdate(handle: DbHandle, ids: bigint[]): Promise<void> {
  await sql`UPDATE bench_jobs SET status = 'DONE' WHERE id = ANY(${ids})`.execute(handle.db);
}

/** Runs `loops` concurrent loops over the batches [from, to) of ids, as a worker with that many in flight. */
async function baselineWorker(handle: DbHandle, from: number, to: number, loops: number): Promise<void> {
  let next = from;
  const loop = async () => {
    while (next < to) {
      const start = next;
      next = Math.min(to, next + BATCH);
      const ids = Array.from({ length: next - start }, (_, i) => BigInt(start + i + 1));
      await plainUpdate(handle, ids);
    }
  };
  await Promise.all(Array.from({ length: loops }, loop));
}

async function resetTable(handle: DbHandle, rows: number): Promise<void> {
  await sql`DROP TABLE IF EXISTS bench_jobs`.execute(handle.db);
  await sql`CREATE TABLE bench_jobs (
    id bigserial PRIMARY KEY,
    status text NOT NULL DEFAULT 'QUEUED',
    run_at timestamptz NOT NULL,
    lease_until timestamptz,
    attempts integer NOT NULL DEFAULT 0,
    payload text
  )`.execute(handle.db);
  // The index a real queue table wants: only ready rows, in due order, so the claim reads the head.
  await sql`CREATE INDEX bench_jobs_due ON bench_jobs (run_at) WHERE status = 'QUEUED'`.execute(handle.db);
  await sql`INSERT INTO bench_jobs (run_at, payload)
    SELECT ${new Date(Date.now() - 1000)}::timestamptz, 'job ' || g FROM generate_series(1, ${rows}) AS g`.execute(
    handle.db,
  );
  await sql`VACUUM ANALYZE bench_jobs`.execute(handle.db);
}

async function checkAllDone(handle: DbHandle, rows: number, attempts: boolean): Promise<void> {
  const result = await sql<{ done: bigint; once: bigint }>`
    SELECT count(*) FILTER (WHERE status = 'DONE') AS done, count(*) FILTER (WHERE attempts = 1) AS once
    FROM bench_jobs`.execute(handle.db);
  const row = result.rows[0];
  if (Number(row?.done) !== rows || (attempts && Number(row?.once) !== rows)) {
    throw new Error(`expected ${rows} rows done exactly once, found ${row?.done} done, ${row?.once} once`);
  }
}

// ---- child process side (PostgreSQL): one worker, driven by the parent over IPC ----

type ToChild = { go: 'queue' } | { go: 'baseline'; from: number; to: number } | { stop: true };
type FromChild = { ready: true } | { handled: number } | { finished: true };

async function childMain(): Promise<void> {
  const handle = await connectDatabase({ databaseUrl: PG_URL, dataDir: null, poolSize: CONCURRENCY + 1 });
  const send = (message: FromChild) => process.send?.(message);
  let runner: QueueRunner | null = null;
  process.on('message', (message: ToChild) => {
    void (async () => {
      if ('stop' in message) {
        await runner?.stop();
        await handle.close();
        send({ finished: true });
        process.disconnect();
      } else if (message.go === 'baseline') {
        await baselineWorker(handle, message.from, message.to, CONCURRENCY);
        send({ finished: true });
      } else {
        runner = new QueueRunner({
          database: handle,
          queues: [benchQueue((count) => send({ handled: count }))],
          pollMs: 50,
        });
        await runner.start();
      }
    })();
  });
  send({ ready: true });
}

function spawnWorker(): Promise<ChildProcess> {
  const child = fork(import.meta.filename, ['child'], { stdio: 'inherit' });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('message', () => resolve(child));
  });
}

function untilMessage(child: ChildProcess, matches: (message: FromChild) => boolean): Promise<void> {
  return new Promise((resolve) => {
    const listener = (message: FromChild) => {
      if (!matches(message)) return;
      child.off('message', listener);
      resolve();
    };
    child.on('message', listener);
  });
}

interface Figures {
  driver: string;
  rows: number;
  queueSeconds: number;
  baselineSeconds: number;
}

async function benchPostgres(rows: number): Promise<Figures> {
  await ensureDatabase(PG_URL);
  const handle = await connectDatabase({ databaseUrl: PG_URL, dataDir: null, poolSize: 2 });
  try {
    // Baseline: each worker updates its half of the ids, batch by batch.
    await resetTable(handle, rows);
    let workers = await Promise.all(Array.from({ length: WORKERS }, spawnWorker));
    let started = performance.now();
    const share = Math.ceil(rows / WORKERS);
    await Promise.all(
      workers.map((child, i) => {
        const finished = untilMessage(child, (m) => 'finished' in m);
        child.send({ go: 'baseline', from: i * share, to: Math.min(rows, (i + 1) * share) } satisfies ToChild);
        return finished;
      }),
    );
    const baselineSeconds = (performance.now() - started) / 1000;
    await Promise.all(
      workers.map(
        (child) => (child.send({ stop: true } satisfies ToChild), untilMessage(child, (m) => 'finished' in m)),
      ),
    );
    await checkAllDone(handle, rows, false);

    // Queue: both workers claim from the whole table; done when every row was handled and finalised.
    await resetTable(handle, rows);
    workers = await Promise.all(Array.from({ length: WORKERS }, spawnWorker));
    let handled = 0;
    const allHandled = new Promise<void>((resolve) => {
      for (const child of workers) {
        child.on('message', (m: FromChild) => {
          if ('handled' in m && (handled += m.handled) >= rows) resolve();
        });
      }
    });
    started = performance.now();
    for (const child of workers) child.send({ go: 'queue' } satisfies ToChild);
    await allHandled;
    // stop() returns once the last batches are finalised.
    await Promise.all(
      workers.map(
        (child) => (child.send({ stop: true } satisfies ToChild), untilMessage(child, (m) => 'finished' in m)),
      ),
    );
    const queueSeconds = (performance.now() - started) / 1000;
    await checkAllDone(handle, rows, true);
    return { driver: 'PostgreSQL', rows, queueSeconds, baselineSeconds };
  } finally {
    await handle.close();
  }
}

async function benchPglite(rows: number): Promise<Figures> {
  const handle = await connectDatabase({ databaseUrl: null, dataDir: null });
  try {
    await resetTable(handle, rows);
    let started = performance.now();
    const share = Math.ceil(rows / WORKERS);
    await Promise.all(
      Array.from({ length: WORKERS }, (_, i) =>
        baselineWorker(handle, i * share, Math.min(rows, (i + 1) * share), CONCURRENCY),
      ),
    );
    const baselineSeconds = (performance.now() - started) / 1000;
    await checkAllDone(handle, rows, false);

    await resetTable(handle, rows);
    let handled = 0;
    let resolveAll!: () => void;
    const allHandled = new Promise<void>((resolve) => (resolveAll = resolve));
    const count = (n: number) => {
      if ((handled += n) >= rows) resolveAll();
    };
    const runners = Array.from(
      { length: WORKERS },
      () => new QueueRunner({ database: handle, queues: [benchQueue(count)], pollMs: 50 }),
    );
    started = performance.now();
    await Promise.all(runners.map((runner) => runner.start()));
    await allHandled;
    await Promise.all(runners.map((runner) => runner.stop()));
    const queueSeconds = (performance.now() - started) / 1000;
    await checkAllDone(handle, rows, true);
    return { driver: 'PGlite', rows, queueSeconds, baselineSeconds };
  } finally {
    await handle.close();
  }
}

function report(figures: Figures[]): void {
  const perSecond = (rows: number, seconds: number) => Math.round(rows / seconds).toLocaleString('en-US');
  const lines = [
    '## Work queue: claim loop (platform)',
    '',
    `\`npm exec -- node bench/queue-claim.ts\`: ${WORKERS} workers (two processes on PostgreSQL, two runners in one process on PGlite), batch ${BATCH}, ${CONCURRENCY} batches in flight per worker; every row checked DONE exactly once. Baseline: the same rows updated by plain \`UPDATE … WHERE id = ANY(batch)\` (no claim, lease or SKIP LOCKED), same run, same table. ${machineLine()}.`,
    '',
    '| driver | rows | queue jobs/s (claimed and completed) | baseline rows/s | queue / baseline |',
    '|---|---:|---:|---:|---:|',
  ];
  for (const f of figures) {
    const ratio = f.baselineSeconds / f.queueSeconds;
    lines.push(
      `| ${f.driver} | ${f.rows.toLocaleString('en-US')} | ${perSecond(f.rows, f.queueSeconds)} | ${perSecond(f.rows, f.baselineSeconds)} | ${ratio.toFixed(2)} |`,
    );
  }
  lines.push('', 'Target: at least 20,000 jobs/s on PostgreSQL on this 2-core machine.');
  console.log(lines.join('\n'));
  // A partial run (one driver) prints only; the committed section always has both drivers.
  if (figures.length === 2) writeSection('queue-claim', lines.join('\n'));
}

async function main(): Promise<void> {
  const only = process.argv[2];
  const figures: Figures[] = [];
  if (only === undefined || only === 'pg') figures.push(await benchPostgres(Number(process.env.BENCH_ROWS ?? 100_000)));
  if (only === undefined || only === 'pglite')
    figures.push(await benchPglite(Number(process.env.BENCH_PGLITE_ROWS ?? 20_000)));
  report(figures);
}

if (process.argv[2] === 'child') await childMain();
else await main();
