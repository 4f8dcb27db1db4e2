// Graceful stop: no new claims, running batches may finish, and what cannot finish in time is handed
// back (lease cleared) so another worker takes it at once rather than after the lease.
import { afterAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/platform/clock.ts';
import { QueueRunner, type JobOutcome } from '../../src/queue/index.ts';
import { getTestDb } from '../support/db.ts';
import { createJobTable, deferred, readJobs, seedJobs, testQueue, until, within, type TestJob } from './support.ts';

describe('stop()', () => {
  const runners: QueueRunner[] = [];
  afterAll(async () => {
    await Promise.all(runners.map((runner) => runner.stop({ timeoutMs: 0 })));
  });

  async function blockedRunner(table: string, clock: ManualClock) {
    const claimed = deferred<TestJob[]>();
    const finish = deferred();
    let signal: AbortSignal | null = null;
    const queue = testQueue(table, {
      batchSize: 20,
      concurrency: 2,
      handleBatch: async (rows, ctx) => {
        signal = ctx.signal;
        claimed.resolve(rows);
        await finish.promise;
        return rows.map((row): JobOutcome => ({ id: row.id, outcome: 'done' }));
      },
    });
    const runner = new QueueRunner({
      database: await getTestDb(),
      queues: [queue],
      clock,
      pollMs: 60_000,
      listen: false,
    });
    runners.push(runner);
    await runner.start();
    return { runner, queue, claimed: claimed.promise, finish: finish.resolve, signal: () => signal };
  }

  it('waits for running batches and finalises them', async () => {
    const { db } = await getTestDb();
    const clock = new ManualClock();
    const table = await createJobTable(db);
    await seedJobs(db, table, 10, clock.now());
    const { runner, claimed, finish } = await blockedRunner(table, clock);
    await within(claimed, 5_000, 'the claim');
    const stopped = runner.stop({ timeoutMs: 10_000 });
    finish();
    expect(await stopped).toEqual({ releasedRows: 0, releasedChores: 0 });
    expect((await readJobs(db, table)).every((row) => row.status === 'DONE' && row.lease_until === null)).toBe(true);
  });

  it('releases the leases of batches that did not finish in time, for others to take at once', async () => {
    const { db } = await getTestDb();
    const clock = new ManualClock();
    const table = await createJobTable(db);
    const ids = await seedJobs(db, table, 15, clock.now());
    const stuck = await blockedRunner(table, clock);
    await within(stuck.claimed, 5_000, 'the claim');
    expect((await readJobs(db, table)).every((row) => row.lease_until !== null)).toBe(true);

    expect(await stuck.runner.stop({ timeoutMs: 50 })).toEqual({ releasedRows: 15, releasedChores: 0 });
    expect(stuck.signal()?.aborted).toBe(true);
    const released = await readJobs(db, table);
    expect(released.every((row) => row.lease_until === null && row.status === 'QUEUED' && row.attempts === 1)).toBe(
      true,
    );

    // Another runner takes them without the clock moving past the lease.
    const handled = deferred<bigint[]>();
    const other = new QueueRunner({
      database: await getTestDb(),
      queues: [
        testQueue(table, {
          handleBatch: async (rows) => {
            handled.resolve(rows.map((row) => row.id).sort((x, y) => (x < y ? -1 : 1)));
            return rows.map((row): JobOutcome => ({ id: row.id, outcome: 'retry', error: 'second worker' }));
          },
        }),
      ],
      clock,
      pollMs: 60_000,
      listen: false,
    });
    runners.push(other);
    await other.start();
    expect(await within(handled.promise, 5_000, 'the other runner')).toEqual(ids);
    await until(
      async () => (await readJobs(db, table)).every((row) => row.lease_until === null),
      'other runner finalised',
    );

    // The first runner's handler finishing late writes nothing: the rows are no longer its own.
    stuck.finish();
    await other.stop();
    const rows = await readJobs(db, table);
    expect(
      rows.every((row) => row.status === 'QUEUED' && row.last_error === 'second worker' && row.attempts === 2),
    ).toBe(true);
  });
});
