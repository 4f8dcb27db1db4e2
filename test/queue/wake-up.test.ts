// With a 60 s poll interval, new work is still picked up at once: NOTIFY at commit, runner.notify()
// in process, and back-to-back claims while batches come back full.
import { sql } from 'kysely';
import { Registry } from 'prom-client';
import { afterAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/platform/clock.ts';
import { notifyQueue, queueDepth, QueueRunner, registerQueueDepthGauge, type Queue } from '../../src/queue/index.ts';
import { getTestDb } from '../support/db.ts';
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

const LONG_POLL_MS = 60_000;

describe('wake-up', () => {
  const cleanups: (() => Promise<unknown>)[] = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  async function setUp(batchSize = 50) {
    const { db } = await getTestDb();
    const clock = new ManualClock();
    const table = await createJobTable(db);
    const handled: bigint[] = [];
    let waiting: { count: number; done: () => void } | null = null;
    const queue = testQueue(table, {
      batchSize,
      handleBatch: async (rows: TestJob[]) => {
        handled.push(...rows.map((row) => row.id));
        if (waiting !== null && handled.length >= waiting.count) waiting.done();
        return rows.map((row) => ({ id: row.id, outcome: 'done' as const }));
      },
    });
    /** Resolves once `count` rows in all have been handled. */
    const handledCount = (count: number) => {
      const reached = deferred();
      waiting = { count, done: reached.resolve };
      if (handled.length >= count) reached.resolve();
      return reached.promise;
    };
    return { db, clock, table, queue, handled, handledCount };
  }

  /** Claims made so far, read from the runner's own metrics. */
  async function claimsMade(registry: Registry, queue: Queue): Promise<number> {
    const text = await registry.metrics();
    const line = text.split('\n').find((l) => l.startsWith(`herald_queue_claim_seconds_count{queue="${queue.name}"}`));
    return line === undefined ? 0 : Number(line.split(' ').at(-1));
  }

  /**
   * Starts a worker of its own, as in another process (its own pool and LISTEN connection on
   * PostgreSQL), and waits until its first claim found nothing: from then on it sleeps for the long
   * poll interval, so rows added later reach it only through a wake-up.
   */
  async function startIdleRunner(queue: Queue, clock: ManualClock, registry = new Registry()) {
    const second = await secondHandle();
    const runner = new QueueRunner({
      database: second.handle,
      queues: [queue],
      clock,
      pollMs: LONG_POLL_MS,
      metrics: registry,
    });
    cleanups.push(second.close, () => runner.stop());
    await runner.start();
    await until(async () => (await claimsMade(registry, queue)) >= 1, 'the first, empty claim');
    return runner;
  }

  it('wakes on NOTIFY sent by the inserting transaction, at commit', async () => {
    const { db, clock, table, queue, handled, handledCount } = await setUp();
    await startIdleRunner(queue, clock);
    const ids = await db.transaction().execute(async (tx) => {
      const inserted = await seedJobs(tx, table, 3, clock.now());
      await notifyQueue(tx, queue.name);
      return inserted;
    });
    await within(handledCount(3), 3_000, 'the notified rows');
    expect([...handled].sort()).toEqual(ids);
  });

  it('wakes on an in-process notify()', async () => {
    const { db, clock, table, queue, handled, handledCount } = await setUp();
    const runner = await startIdleRunner(queue, clock);
    const ids = await seedJobs(db, table, 2, clock.now());
    runner.notify(queue.name);
    await within(handledCount(2), 3_000, 'the rows after notify()');
    expect([...handled].sort()).toEqual(ids);
  });

  it('claims again at once while batches come back full', async () => {
    const { db, clock, table, queue, handledCount } = await setUp(10);
    const registry = new Registry();
    registerQueueDepthGauge(registry, db, [queue], clock);
    await startIdleRunner(queue, clock, registry);
    // 95 rows, one wake-up: ten claims must follow one another without waiting for a poll.
    await db.transaction().execute(async (tx) => {
      await seedJobs(tx, table, 95, clock.now());
      await notifyQueue(tx, queue.name);
    });
    await within(handledCount(95), 5_000, 'all 95 rows');
    await until(async () => (await readJobs(db, table)).every((row) => row.status === 'DONE'), 'rows finalised');

    const metrics = await registry.metrics();
    expect(metrics).toMatch(new RegExp(`herald_queue_jobs_total\\{queue="${table}",outcome="done"\\} 95`));
    expect(metrics).toMatch(new RegExp(`herald_queue_claim_seconds_count\\{queue="${table}"\\} \\d+`));
    expect(metrics).toContain(`herald_queue_depth{queue="${table}"} 0`);
  });

  it('leaves a queue it cannot count out of the scrape instead of failing it', async () => {
    const { db, clock, table, queue } = await setUp();
    await seedJobs(db, table, 3, clock.now());
    const registry = new Registry();
    registerQueueDepthGauge(
      registry,
      db,
      [queue, testQueue('no_such_queue_table', { handleBatch: async () => [] })],
      clock,
    );
    const metrics = await registry.metrics();
    expect(metrics).toContain(`herald_queue_depth{queue="${table}"} 3`);
    expect(metrics).not.toContain('no_such_queue_table');
  });

  it('queueDepth counts due rows nobody holds', async () => {
    const { db, clock, table, queue } = await setUp();
    await seedJobs(db, table, 4, clock.now());
    await seedJobs(db, table, 2, new Date(clock.now().getTime() + 60_000)); // not due yet
    const leased = await seedJob(db, table, clock.now());
    await sql`UPDATE ${sql.table(table)} SET lease_until = ${new Date(clock.now().getTime() + 1_000)}::timestamptz
      WHERE id = ${leased}`.execute(db);
    expect(await queueDepth(db, queue, clock.now())).toBe(4);
    clock.advance(60_000); // the lease has expired and the later rows are due
    expect(await queueDepth(db, queue, clock.now())).toBe(7);
  });
});
