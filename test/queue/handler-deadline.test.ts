// A handler that never settles is failed like one that throws (issue 41): past handlerTimeoutMs its
// batch's signal is aborted and its rows retried with backoff, then failed after maxAttempts, well
// before the lease runs out; rows handled one by one that finished stay done, and the rows behind a
// hung one are not held back.
import { afterAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/platform/clock.ts';
import { defineQueue, QueueRunner, type JobOutcome, type Queue } from '../../src/queue/index.ts';
import { getTestDb } from '../support/db.ts';
import { createJobTable, readJobs, seedJob, seedJobs, testQueue, until, type TestJob } from './support.ts';

const never = new Promise<never>(() => {});

describe('handler deadlines', () => {
  const runners: QueueRunner[] = [];
  afterAll(async () => {
    await Promise.all(runners.map((runner) => runner.stop({ timeoutMs: 100 })));
  });

  async function startRunner(queue: Queue, clock: ManualClock): Promise<QueueRunner> {
    const runner = new QueueRunner({ database: await getTestDb(), queues: [queue], clock, pollMs: 50, listen: false });
    runners.push(runner);
    await runner.start();
    return runner;
  }

  it('defaults to three quarters of the lease, and refuses one that does not end before the lease', () => {
    const handleBatch = async () => [];
    const base = { table: 't', dueColumn: 'run_at', handleBatch, onDone: async () => {}, onFailed: async () => {} };
    expect(defineQueue({ ...base, name: 'a', leaseMs: 60_000 }).handlerTimeoutMs).toBe(45_000);
    expect(defineQueue({ ...base, name: 'b', leaseMs: 60_000, handlerTimeoutMs: 5_000 }).handlerTimeoutMs).toBe(5_000);
    expect(() => defineQueue({ ...base, name: 'c', leaseMs: 60_000, handlerTimeoutMs: 60_000 })).toThrow(
      /shorter than leaseMs/,
    );
  });

  it('retries a batch whose handler never settles, aborts its signal, and fails it after maxAttempts', async () => {
    const { db } = await getTestDb();
    const clock = new ManualClock();
    const table = await createJobTable(db);
    const ids = await seedJobs(db, table, 2, clock.now(), 'hang');
    const signals: AbortSignal[] = [];
    const queue = testQueue(table, {
      leaseMs: 60_000,
      handlerTimeoutMs: 200,
      maxAttempts: 2,
      backoff: { baseMs: 1_000, maxMs: 1_000 },
      handleBatch: (_rows: TestJob[], ctx) => {
        signals.push(ctx.signal);
        return never;
      },
    });
    const runner = await startRunner(queue, clock);
    const rowsOf = async () => (await readJobs(db, table)).filter((row) => ids.includes(row.id));

    await until(
      async () => (await rowsOf()).every((row) => row.attempts === 1 && row.lease_until === null),
      'first attempt retried',
    );
    for (const row of await rowsOf()) {
      expect(row.status).toBe('QUEUED');
      expect(row.last_error).toMatch(/did not finish within 200 ms/);
    }
    expect(signals[0]?.aborted).toBe(true);

    clock.advance(10_000);
    runner.wake();
    await until(async () => (await rowsOf()).every((row) => row.status === 'FAILED'), 'rows failed for good');
    expect((await rowsOf()).every((row) => row.attempts === 2 && row.lease_until === null)).toBe(true);
  });

  it('keeps the rows a row-by-row handler finished, retries only the hung one, and takes the rows behind it', async () => {
    const { db } = await getTestDb();
    const clock = new ManualClock();
    const table = await createJobTable(db);
    const poison = await seedJob(db, table, clock.now(), 'poison');
    const good = await seedJobs(db, table, 3, clock.now(), 'good');
    const queue = testQueue(table, {
      batchSize: 4,
      leaseMs: 60_000,
      handlerTimeoutMs: 300,
      maxAttempts: 3,
      backoff: { baseMs: 60_000, maxMs: 60_000 },
      handleRow: async (row: TestJob) => {
        if (row.payload?.startsWith('poison')) await never;
      },
    });
    await startRunner(queue, clock);
    await until(async () => {
      const rows = await readJobs(db, table);
      return rows.every((row) => row.lease_until === null && row.attempts === 1);
    }, 'the batch written back');
    const rows = await readJobs(db, table);
    expect(rows.filter((row) => good.includes(row.id)).map((row) => row.status)).toEqual(['DONE', 'DONE', 'DONE']);
    const hung = rows.find((row) => row.id === poison)!;
    expect(hung.status).toBe('QUEUED');
    expect(hung.last_error).toMatch(/did not finish within 300 ms/);

    // Rows queued behind the retried one are taken while it waits for its backoff.
    const later = await seedJobs(db, table, 2, clock.now(), 'good-later');
    await until(
      async () =>
        (await readJobs(db, table)).filter((row) => later.includes(row.id)).every((row) => row.status === 'DONE'),
      'rows behind it done',
    );
  });

  it('lets a batch handler that stops on the aborted signal answer for what it finished', async () => {
    const { db } = await getTestDb();
    const clock = new ManualClock();
    const table = await createJobTable(db);
    const ids = await seedJobs(db, table, 2, clock.now(), 'job');
    const queue = testQueue(table, {
      leaseMs: 60_000,
      handlerTimeoutMs: 200,
      handleBatch: async (rows: TestJob[], ctx) => {
        await new Promise((resolve) => ctx.signal.addEventListener('abort', resolve));
        return rows.map((row, i): JobOutcome =>
          i === 0 ? { id: row.id, outcome: 'done' } : { id: row.id, outcome: 'retry', error: 'stopped early' },
        );
      },
    });
    await startRunner(queue, clock);
    await until(
      async () => (await readJobs(db, table)).every((row) => row.lease_until === null && row.attempts === 1),
      'the batch written back',
    );
    const rows = (await readJobs(db, table)).filter((row) => ids.includes(row.id));
    expect(rows.map((row) => row.status)).toEqual(['DONE', 'QUEUED']);
    expect(rows[1]!.last_error).toBe('stopped early');
  });
});
