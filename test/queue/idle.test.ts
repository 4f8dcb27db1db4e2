// runner.idle(): resolves once a claim started after the call found nothing due, so a test that moved
// its clock can wait for the work that became due instead of sleeping.
import { afterAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/platform/clock.ts';
import { QueueRunner } from '../../src/queue/index.ts';
import { getTestDb } from '../support/db.ts';
import { createJobTable, readJobs, seedJobs, testQueue, type TestJob } from './support.ts';

describe('runner.idle()', () => {
  const runners: QueueRunner[] = [];
  afterAll(async () => {
    for (const runner of runners) await runner.stop();
  });

  it('waits until every due row is handled, and not for rows that are not due yet', async () => {
    const { db } = await getTestDb();
    const clock = new ManualClock();
    const table = await createJobTable(db);
    const queue = testQueue(table, {
      batchSize: 5,
      handleBatch: async (rows: TestJob[]) => {
        // Slow enough that a sleep-based test would have to guess.
        await new Promise((resolve) => setTimeout(resolve, 20));
        return rows.map((row) => ({ id: row.id, outcome: 'done' as const }));
      },
    });
    // A 60 s poll: without idle() waking the lane, nothing would happen during the test.
    const database = await getTestDb();
    const runner = new QueueRunner({ database, queues: [queue], clock, pollMs: 60_000, listen: false });
    runners.push(runner);
    await runner.start();
    await runner.idle();

    await seedJobs(db, table, 23, clock.now());
    await seedJobs(db, table, 4, new Date(clock.now().getTime() + 60_000));
    await runner.idle();
    const jobs = await readJobs(db, table);
    expect(jobs.filter((job) => job.status === 'DONE')).toHaveLength(23);
    expect(jobs.filter((job) => job.status === 'QUEUED')).toHaveLength(4);

    clock.advance(61_000);
    await runner.idle(queue.name);
    expect((await readJobs(db, table)).every((job) => job.status === 'DONE')).toBe(true);
  });
});
