// Two runners (two connections on PostgreSQL) drain 1,200 rows: every row is handled exactly once.
import { pino } from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/platform/clock.ts';
import { QueueRunner } from '../../src/queue/index.ts';
import { getTestDb } from '../support/db.ts';
import {
  createJobTable,
  deferred,
  readJobs,
  secondHandle,
  seedJobs,
  testQueue,
  within,
  type TestJob,
} from './support.ts';

const ROWS = 1_200;

describe('two runners over one table', () => {
  const cleanups: (() => Promise<unknown>)[] = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  it('processes every row exactly once', async () => {
    const { db } = await getTestDb();
    const second = await secondHandle();
    cleanups.push(second.close);
    const clock = new ManualClock();
    const table = await createJobTable(db);
    const ids = await seedJobs(db, table, ROWS, clock.now());

    const handled: { runner: string; id: bigint }[] = [];
    const allHandled = deferred();
    // Each runner's first batch waits until the other runner holds a batch too: on a busy machine
    // one runner could otherwise drain the table alone and the test would not test concurrency.
    const holding = { a: deferred(), b: deferred() };
    const handler = (runner: 'a' | 'b') => async (rows: TestJob[]) => {
      holding[runner].resolve();
      await within(
        holding[runner === 'a' ? 'b' : 'a'].promise,
        10_000,
        `runner ${runner === 'a' ? 'b' : 'a'} took a batch`,
      );
      for (const row of rows) handled.push({ runner, id: row.id });
      if (handled.length >= ROWS) allHandled.resolve();
      return rows.map((row) => ({ id: row.id, outcome: 'done' as const }));
    };
    const queueA = testQueue(table, { batchSize: 50, concurrency: 2, handleBatch: handler('a') });
    const queueB = testQueue(table, { batchSize: 50, concurrency: 2, handleBatch: handler('b') });
    // A pino logger plugs in as is (silent here; the point is that it type-checks and is called).
    const logger = pino({ level: 'silent' });
    const a = new QueueRunner({ database: await getTestDb(), queues: [queueA], clock, pollMs: 20, logger });
    const b = new QueueRunner({ database: second.handle, queues: [queueB], clock, pollMs: 20 });
    cleanups.push(
      () => a.stop(),
      () => b.stop(),
    );
    await Promise.all([a.start(), b.start()]);

    await within(allHandled.promise, 20_000, 'all rows handled');
    // stop() waits for the last batches' finalisation.
    await Promise.all([a.stop(), b.stop()]);

    const handledIds = handled.map((h) => h.id);
    expect(handledIds.length).toBe(ROWS);
    expect(new Set(handledIds).size).toBe(ROWS);
    expect([...handledIds].sort((x, y) => (x < y ? -1 : 1))).toEqual(ids);
    // Both runners took part (otherwise this would not test concurrency at all).
    expect(handled.some((h) => h.runner === 'a')).toBe(true);
    expect(handled.some((h) => h.runner === 'b')).toBe(true);

    const rows = await readJobs(db, table);
    expect(rows.every((row) => row.status === 'DONE' && row.attempts === 1 && row.lease_until === null)).toBe(true);
  });
});
