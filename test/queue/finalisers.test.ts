// Bulk finalisation: SQL-fragment finalisers (one statement with the next claim) and custom
// finaliser functions (statements of the caller's own), with per-outcome counts in the metrics.
import { sql } from 'kysely';
import { Registry } from 'prom-client';
import { afterAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/platform/clock.ts';
import { QueueRunner, type JobOutcome, type Queue } from '../../src/queue/index.ts';
import { getTestDb } from '../support/db.ts';
import { createJobTable, readJobs, seedJobs, testQueue, until, type TestJob } from './support.ts';

describe('finalisers', () => {
  const runners: QueueRunner[] = [];
  afterAll(async () => {
    await Promise.all(runners.map((runner) => runner.stop()));
  });

  async function run(queue: Queue, clock: ManualClock, registry?: Registry) {
    const runner = new QueueRunner({
      database: await getTestDb(),
      queues: [queue],
      clock,
      pollMs: 60_000,
      listen: false,
      metrics: registry,
    });
    runners.push(runner);
    await runner.start();
    return runner;
  }

  it('writes done, retry and failed rows of one batch back and counts them', async () => {
    const { db } = await getTestDb();
    const clock = new ManualClock();
    const table = await createJobTable(db);
    await seedJobs(db, table, 30, clock.now());
    const registry = new Registry();
    // Batches of 10: each batch mixes all three outcomes, and the next batch is claimed along.
    const queue = testQueue(table, {
      batchSize: 10,
      handleBatch: async (rows: TestJob[]) =>
        rows.map((row): JobOutcome => {
          const n = Number(row.id % 3n);
          if (n === 0) return { id: row.id, outcome: 'done' };
          if (n === 1) return { id: row.id, outcome: 'retry', error: 'try later' };
          return { id: row.id, outcome: 'failed', error: 'no such mailbox' };
        }),
    });
    await run(queue, clock, registry);
    await until(
      async () => (await readJobs(db, table)).every((row) => row.attempts === 1 && row.lease_until === null),
      'all written back',
    );
    for (const row of await readJobs(db, table)) {
      const n = Number(row.id % 3n);
      if (n === 0) expect(row).toMatchObject({ status: 'DONE', last_error: null });
      if (n === 1) expect(row).toMatchObject({ status: 'QUEUED', last_error: 'try later' });
      if (n === 1) expect(row.run_at.getTime()).toBeGreaterThan(clock.now().getTime());
      if (n === 2) expect(row).toMatchObject({ status: 'FAILED', last_error: 'no such mailbox' });
    }
    const metrics = await registry.metrics();
    const count = (outcome: string) =>
      Number(
        new RegExp(`herald_queue_jobs_total\\{queue="${table}",outcome="${outcome}"\\} (\\d+)`).exec(metrics)?.[1] ?? 0,
      );
    expect([count('done'), count('retry'), count('failed'), count('lost')]).toEqual([10, 10, 10, 0]);
  });

  it('hands rows to a custom finaliser function with the lease to match on', async () => {
    const { db } = await getTestDb();
    const clock = new ManualClock();
    const table = await createJobTable(db);
    const ids = await seedJobs(db, table, 12, clock.now());
    const archived: bigint[] = [];
    const queue = testQueue(table, {
      batchSize: 5,
      handleBatch: async (rows: TestJob[]) => rows.map((row): JobOutcome => ({ id: row.id, outcome: 'done' })),
      onDone: async (items, ctx) => {
        archived.push(...items.map((item) => item.row.id));
        await sql`UPDATE ${sql.table(table)} SET status = 'ARCHIVED', lease_until = NULL
          WHERE id = ANY(${items.map((item) => item.id)}) AND lease_until = ${ctx.leaseUntil}::timestamptz`.execute(
          ctx.db,
        );
      },
    });
    await run(queue, clock);
    await until(async () => (await readJobs(db, table)).every((row) => row.status === 'ARCHIVED'), 'all archived');
    expect([...archived].sort((x, y) => (x < y ? -1 : 1))).toEqual(ids);
  });
});
