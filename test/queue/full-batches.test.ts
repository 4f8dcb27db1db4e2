// fullBatches: a lane holds at most that many full batches at once (a backlog), whatever its
// concurrency; batches that are not full (a trickle) use every slot.
import { afterAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/platform/clock.ts';
import { QueueRunner } from '../../src/queue/index.ts';
import { getTestDb } from '../support/db.ts';
import { createJobTable, deferred, readJobs, seedJob, seedJobs, testQueue, until, type TestJob } from './support.ts';

const BATCH = 10;

describe('fullBatches', () => {
  const cleanups: (() => Promise<unknown>)[] = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  async function start(handleBatch: (rows: TestJob[]) => Promise<void>) {
    const { db } = await getTestDb();
    const clock = new ManualClock();
    const table = await createJobTable(db);
    const queue = testQueue(table, {
      batchSize: BATCH,
      concurrency: 4,
      fullBatches: 2,
      handleBatch: async (rows: TestJob[]) => {
        await handleBatch(rows);
        return rows.map((row) => ({ id: row.id, outcome: 'done' as const }));
      },
    });
    const runner = new QueueRunner({ database: await getTestDb(), queues: [queue], clock, pollMs: 50 });
    cleanups.push(() => runner.stop());
    await runner.start();
    return { db, clock, table, queue, runner };
  }

  it('works a backlog two full batches at a time with four slots', async () => {
    let full = 0;
    let mostFull = 0;
    const { db, clock, table, queue, runner } = await start(async (rows) => {
      if (rows.length < BATCH) return;
      mostFull = Math.max(mostFull, ++full);
      // Held long enough for the other slots to claim, if they were allowed to.
      await new Promise((resolve) => setTimeout(resolve, 20));
      full--;
    });
    await seedJobs(db, table, 20 * BATCH, clock.now());
    runner.notify(queue.name);
    await until(
      async () => (await readJobs(db, table)).every((row) => row.status === 'DONE'),
      'every row done',
      20_000,
    );
    expect(mostFull).toBe(2);
  });

  it('works a trickle in all four slots: batches that are not full do not count', async () => {
    const release = deferred();
    const held: number[] = [];
    const { db, clock, table, queue, runner } = await start(async (rows) => {
      held.push(rows.length);
      await release.promise;
    });
    // One row at a time, each claimed by a slot of its own while the earlier ones are still held.
    for (let i = 1; i <= 4; i++) {
      await seedJob(db, table, clock.now());
      runner.notify(queue.name);
      await until(async () => held.length === i, `trickled row ${i} held`);
    }
    expect(held).toEqual([1, 1, 1, 1]);
    release.resolve();
    await until(async () => (await readJobs(db, table)).every((row) => row.status === 'DONE'), 'every row done');
  });
});
