// A queue with a short lease and leaseRenewMs: a live worker keeps its rows past the first lease (no
// other claim takes them), its writes under the lease carry the renewed mark, and the batch is
// written back (no row counted lost); a worker that stops renewing loses them when the lease runs out.
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/platform/clock.ts';
import { claimDue, QueueRunner, underLease, type BatchContext, type QueueLogger } from '../../src/queue/index.ts';
import { getTestDb } from '../support/db.ts';
import { createJobTable, deferred, readJobs, seedJobs, testQueue, until, within, type TestJob } from './support.ts';

const LEASE_MS = 10_000;
const RENEW_MS = 50;

describe('lease renewal', () => {
  const cleanups: (() => Promise<unknown>)[] = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  it('keeps a slow batch its rows past the first lease, and writes it back under the renewed lease', async () => {
    const { db } = await getTestDb();
    const clock = new ManualClock();
    const table = await createJobTable(db);
    const ids = await seedJobs(db, table, 3, clock.now());
    const claimedAt = clock.now().getTime();

    const claimed = deferred<BatchContext>();
    const finish = deferred();
    const queue = testQueue(table, {
      leaseMs: LEASE_MS,
      leaseRenewMs: RENEW_MS,
      handleBatch: async (rows: TestJob[], ctx) => {
        claimed.resolve(ctx);
        await finish.promise;
        // Each write matches on the lease the rows carry now, as the email delivery's outcome writes do.
        const written = await Promise.all(
          rows.map((row) =>
            underLease(ctx, async (leaseUntil) => {
              const result = await sql`UPDATE ${sql.table(table)} SET payload = 'written'
                WHERE id = ${row.id} AND lease_until = ${leaseUntil}::timestamptz`.execute(db);
              return Number(result.numAffectedRows ?? 0n);
            }),
          ),
        );
        expect(written).toEqual(rows.map(() => 1));
        return rows.map((row) => ({ id: row.id, outcome: 'done' as const }));
      },
    });
    const warnings: string[] = [];
    const logger: QueueLogger = {
      debug() {},
      info() {},
      warn: (_obj, msg) => warnings.push(msg),
      error: (_obj, msg) => warnings.push(msg),
    };
    const runner = new QueueRunner({ database: await getTestDb(), queues: [queue], clock, pollMs: 60_000, logger });
    cleanups.push(() => runner.stop({ timeoutMs: 0 }));
    await runner.start();
    const ctx = await within(claimed.promise, 5_000, 'the claim');
    expect(ctx.leaseUntil.getTime()).toBe(claimedAt + LEASE_MS);

    // Time passes while the handler works: the keeper moves the lease on.
    clock.advance(LEASE_MS - 1_000);
    await until(
      async () =>
        (await readJobs(db, table)).every((job) => job.lease_until?.getTime() === clock.now().getTime() + LEASE_MS),
      'the lease renewed',
    );
    expect(ctx.leaseUntil.getTime()).toBe(clock.now().getTime() + LEASE_MS);
    // Past the first lease, another worker's claim finds the rows still held.
    clock.advance(2_000);
    expect((await claimDue(db, queue, clock.now())).rows).toEqual([]);

    finish.resolve();
    await until(
      async () => (await readJobs(db, table)).every((job) => job.status === 'DONE'),
      'the batch written back',
    );
    const jobs = await readJobs(db, table);
    expect(jobs.map((job) => [job.id, job.payload, job.lease_until])).toEqual(ids.map((id) => [id, 'written', null]));
    expect(warnings).toEqual([]);
  });

  it('leaves a hung batch nothing once renewal stops: its rows come back after one lease', async () => {
    const { db } = await getTestDb();
    const clock = new ManualClock();
    const table = await createJobTable(db);
    await seedJobs(db, table, 2, clock.now());
    const queue = testQueue(table, {
      leaseMs: LEASE_MS,
      leaseRenewMs: RENEW_MS,
      handleBatch: () => new Promise(() => {}),
    });
    // A claim by hand stands for a worker that was killed: nobody renews its lease.
    const dead = await claimDue(db, queue, clock.now());
    expect(dead.rows).toHaveLength(2);
    clock.advance(LEASE_MS - 1);
    expect((await claimDue(db, queue, clock.now())).rows).toEqual([]);
    clock.advance(2);
    expect((await claimDue(db, queue, clock.now())).rows).toHaveLength(2);
  });

  it('does not take back a lease that ran out before its renewal: another worker may claim the rows', async () => {
    const { db } = await getTestDb();
    const clock = new ManualClock();
    const table = await createJobTable(db);
    await seedJobs(db, table, 2, clock.now());
    const claimed = deferred();
    const queue = testQueue(table, {
      leaseMs: LEASE_MS,
      leaseRenewMs: RENEW_MS,
      handleBatch: () => {
        claimed.resolve();
        return new Promise(() => {});
      },
    });
    const ranOut = deferred();
    const logger: QueueLogger = {
      debug: (_obj, msg) => {
        if (msg === 'lease ran out before its renewal') ranOut.resolve();
      },
      info() {},
      warn() {},
      error() {},
    };
    // A live worker whose handler hangs, and whose clock jumps past the lease (a stall).
    const runner = new QueueRunner({ database: await getTestDb(), queues: [queue], clock, pollMs: 60_000, logger });
    cleanups.push(() => runner.stop({ timeoutMs: 0 }));
    await runner.start();
    await within(claimed.promise, 5_000, 'the claim');
    clock.advance(LEASE_MS + 1);
    await within(ranOut.promise, 5_000, 'the renewal that finds the lease gone');
    expect((await claimDue(db, queue, clock.now())).rows).toHaveLength(2);
  });

  it('refuses a renewal interval that leaves the lease no room', () => {
    expect(() => testQueue('jobs', { leaseMs: 1_000, leaseRenewMs: 600, handleRow: async () => {} })).toThrow(
      /at most half/,
    );
  });
});
