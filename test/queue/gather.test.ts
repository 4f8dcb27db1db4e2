// gatherMs: after a batch that was not full the lane pauses before claiming again, so rows that
// trickle in meanwhile are taken together; the claim after an idle spell still goes at once, a full
// batch is followed by a claim at once, and stop() does not wait for a pause to end.
import { afterAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/platform/clock.ts';
import { QueueRunner } from '../../src/queue/index.ts';
import { getTestDb } from '../support/db.ts';
import { createJobTable, readJobs, seedJob, seedJobs, testQueue, until, type TestJob } from './support.ts';

const GATHER_MS = 400;
const LONG_POLL_MS = 60_000;

describe('gatherMs', () => {
  const cleanups: (() => Promise<unknown>)[] = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  async function start(batchSize: number) {
    const { db } = await getTestDb();
    const clock = new ManualClock();
    const table = await createJobTable(db);
    /** Each batch the handler saw: its size and when (performance.now()). */
    const batches: { size: number; at: number }[] = [];
    const queue = testQueue(table, {
      batchSize,
      gatherMs: GATHER_MS,
      handleBatch: async (rows: TestJob[]) => {
        batches.push({ size: rows.length, at: performance.now() });
        return rows.map((row) => ({ id: row.id, outcome: 'done' as const }));
      },
    });
    const runner = new QueueRunner({ database: await getTestDb(), queues: [queue], clock, pollMs: LONG_POLL_MS });
    cleanups.push(() => runner.stop());
    await runner.start();
    await runner.idle(queue.name);
    return { db, clock, table, queue, runner, batches };
  }

  it('takes the first row at once, then the rows that arrive during the pause as one batch', async () => {
    const { db, clock, table, queue, runner, batches } = await start(50);
    const notified = performance.now();
    await seedJob(db, table, clock.now());
    runner.notify(queue.name);
    await until(async () => batches.length === 1, 'the first batch');
    expect(batches[0]!.size).toBe(1);
    // Without the pause this would be well inside it: the claim after an idle spell does not gather.
    expect(batches[0]!.at - notified).toBeLessThan(GATHER_MS);

    // Three rows, each announced as it lands: the notifications do not end the pause.
    for (let i = 0; i < 3; i++) {
      await seedJob(db, table, clock.now());
      runner.notify(queue.name);
    }
    await until(async () => batches.length === 2, 'the gathered batch');
    expect(batches[1]!.size).toBe(3);
    expect(batches[1]!.at - batches[0]!.at).toBeGreaterThanOrEqual(GATHER_MS - 20);
    await until(async () => (await readJobs(db, table)).every((row) => row.status === 'DONE'), 'every row done');
  });

  it('claims again at once after a full batch', async () => {
    const { db, clock, table, queue, runner, batches } = await start(10);
    await seedJobs(db, table, 25, clock.now());
    runner.notify(queue.name);
    await until(async () => batches.reduce((sum, b) => sum + b.size, 0) === 25, 'all 25 rows');
    expect(batches.map((b) => b.size)).toEqual([10, 10, 5]);
    // 10 then 10 back to back; only the batch of 5 (not full) would be followed by a pause.
    expect(batches[1]!.at - batches[0]!.at).toBeLessThan(GATHER_MS);
  });

  it('stop() does not wait for a pause to run out', async () => {
    const { db, clock, table, queue, runner, batches } = await start(50);
    await seedJob(db, table, clock.now());
    runner.notify(queue.name);
    await until(async () => batches.length === 1, 'the first batch');
    // The lane is now pausing for GATHER_MS (plus the test's 60 s poll after it).
    const stopping = performance.now();
    await runner.stop();
    expect(performance.now() - stopping).toBeLessThan(GATHER_MS);
  });
});
