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
    const runner = startRunner(queue, await getTestDb(), clock);
    // Cleanups run last first: the held batch is let go before the runner stops.
    cleanups.push(async () => release.resolve());
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

  // Holding a claim or a write-back still takes a table lock from a second connection (PostgreSQL
  // only): the statement waits on it until unlock().
  async function lockTable(table: string) {
    const { db } = await getTestDb();
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
    return {
      /** Resolves once `count` statements wait on the lock. */
      waiting: (count: number) =>
        until(async () => {
          const waiting = await sql<{ n: number }>`
            SELECT count(*)::int AS n FROM pg_locks WHERE relation = ${table}::regclass AND NOT granted`.execute(db);
          return waiting.rows[0]!.n >= count;
        }, `${count} statements waiting on the lock`),
      unlock: async () => {
        unlock.resolve();
        await holding;
      },
    };
  }

  /** A runner polling every 60 s: only the wake-ups under test can make it claim within a test's wait. */
  function startRunner(
    queue: ReturnType<typeof testQueue>,
    database: Awaited<ReturnType<typeof getTestDb>>,
    clock = new ManualClock(),
  ) {
    const runner = new QueueRunner({
      database,
      queues: [queue],
      clock,
      pollMs: 60_000,
      listen: false,
    });
    cleanups.push(() => runner.stop());
    return runner;
  }

  // A claim under way counts as a full batch until it comes back. Here one is held on the lock while
  // runner.idle() is called, so only a claim after it can answer idle(); the other slot, held back
  // meanwhile, must look again when the claim comes back empty, not sleep its poll interval (60 s).
  it.runIf(testDatabaseUrl() !== null)(
    'a claim that comes back short wakes the slot held back while it ran',
    async () => {
      const database = await getTestDb();
      const table = await createJobTable(database.db);
      const queue = testQueue(table, { batchSize: BATCH, concurrency: 2, fullBatches: 1, handleRow: async () => {} });
      const runner = startRunner(queue, database);
      await runner.start();
      await runner.idle();

      const lock = await lockTable(table);
      runner.notify(queue.name);
      await lock.waiting(1);
      const idle = runner.idle();
      await lock.unlock();
      await within(idle, 5_000, 'runner.idle()');
    },
  );

  // Two slots, two full batches: one slot's batch ends while the other slot claims, so it writes its
  // batch back without claiming (that claim may come back full). It must then wait for room, and
  // claim when there is, not sleep its poll interval (60 s) while one slot works the backlog alone.
  it.runIf(testDatabaseUrl() !== null)(
    'a slot that wrote its batch back without claiming claims again when there is room',
    async () => {
      const database = await getTestDb();
      const table = await createJobTable(database.db);
      const gates = Array.from({ length: 4 }, () => deferred());
      const held: number[] = [];
      const queue = testQueue(table, {
        batchSize: BATCH,
        concurrency: 2,
        fullBatches: 2,
        handleBatch: async (rows: TestJob[]) => {
          const gate = gates[held.push(rows.length) - 1];
          await gate?.promise;
          return rows.map((row) => ({ id: row.id, outcome: 'done' as const }));
        },
      });
      const runner = startRunner(queue, database);
      cleanups.push(async () => gates.forEach((gate) => gate.resolve()));
      await runner.start();
      await runner.idle();
      await seedJobs(database.db, table, 4 * BATCH, new Date(0));
      runner.notify(queue.name);
      await until(async () => held.length === 2, 'two full batches held');

      const lock = await lockTable(table);
      gates[1]!.resolve();
      await lock.waiting(1); // the second slot's write-back and next claim
      gates[0]!.resolve();
      await lock.waiting(2); // the first slot's write-back alone
      await lock.unlock();
      await until(async () => held.length === 4, 'the third and fourth batches held at once');
      expect(held).toEqual([BATCH, BATCH, BATCH, BATCH]);
    },
  );
});
