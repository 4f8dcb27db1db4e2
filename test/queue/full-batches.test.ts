// fullBatches: a lane holds at most that many full batches at once (a backlog), whatever its
// concurrency; batches that are not full (a trickle) use every slot.
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/platform/clock.ts';
import { QueueRunner } from '../../src/queue/index.ts';
import { getTestDb, testDatabaseUrl } from '../support/db.ts';
import {
  createJobTable,
  deferred,
  readJobs,
  secondHandle,
  seedJob,
  seedJobs,
  testQueue,
  until,
  within,
  type TestJob,
} from './support.ts';

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

  // With one full batch allowed, a claim under way holds the other slot back until it comes back
  // short; the other slot must then be free to take the next rows while the short batch is worked.
  it('a short batch does not keep the other slot from claiming (60 s poll)', async () => {
    const { db } = await getTestDb();
    const clock = new ManualClock();
    const table = await createJobTable(db);
    const release = deferred();
    const held: number[] = [];
    const queue = testQueue(table, {
      batchSize: BATCH,
      concurrency: 2,
      fullBatches: 1,
      handleBatch: async (rows: TestJob[]) => {
        held.push(rows.length);
        await release.promise;
        return rows.map((row) => ({ id: row.id, outcome: 'done' as const }));
      },
    });
    const runner = new QueueRunner({
      database: await getTestDb(),
      queues: [queue],
      clock,
      pollMs: 60_000,
      listen: false,
    });
    cleanups.push(async () => {
      release.resolve();
      await runner.stop();
    });
    await runner.start();
    await runner.idle();
    await seedJobs(db, table, 3, clock.now());
    runner.notify(queue.name);
    await until(async () => held.length === 1, 'the first batch held');
    await seedJobs(db, table, 2, clock.now());
    runner.notify(queue.name);
    await until(async () => held.length === 2, 'the second batch held beside the first');
    expect(held).toEqual([3, 2]);
  });

  // A claim under way counts as a full batch until it comes back. Here it is held on a table lock
  // (a second connection: PostgreSQL only) while runner.idle() is called, so only a claim after it
  // can answer idle(); the other slot, held back meanwhile, must look again when the claim comes
  // back empty instead of sleeping its poll interval (60 s).
  it.runIf(testDatabaseUrl() !== null)(
    'a claim that comes back short wakes the slot held back while it ran',
    async () => {
      const { db } = await getTestDb();
      const table = await createJobTable(db);
      const queue = testQueue(table, {
        batchSize: BATCH,
        concurrency: 2,
        fullBatches: 1,
        handleRow: async () => {},
      });
      const database = await getTestDb();
      const runner = new QueueRunner({
        database,
        queues: [queue],
        clock: new ManualClock(),
        pollMs: 60_000,
        listen: false,
      });
      cleanups.push(() => runner.stop());
      await runner.start();
      await runner.idle();

      const second = await secondHandle();
      cleanups.push(second.close);
      const locked = deferred();
      const unlock = deferred();
      const holding = second.handle.db.transaction().execute(async (tx) => {
        await sql`LOCK TABLE ${sql.table(table)} IN EXCLUSIVE MODE`.execute(tx);
        locked.resolve();
        await unlock.promise;
      });
      await locked.promise;
      runner.notify(queue.name);
      await until(async () => {
        const waiting = await sql<{ n: number }>`
          SELECT count(*)::int AS n FROM pg_locks WHERE relation = ${table}::regclass AND NOT granted`.execute(db);
        return waiting.rows[0]!.n > 0;
      }, 'a claim waiting on the lock');
      const idle = runner.idle();
      unlock.resolve();
      await holding;
      await within(idle, 5_000, 'runner.idle()');
    },
  );
});
