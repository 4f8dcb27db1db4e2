// A worker that dies mid-batch loses nothing: its rows come back when the lease expires, and not before.
import { afterAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/platform/clock.ts';
import { claimDue, QueueRunner } from '../../src/queue/index.ts';
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

const LEASE_MS = 60_000;

describe('lease expiry', () => {
  const cleanups: (() => Promise<unknown>)[] = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  it("hands a killed worker's rows to another runner only after the lease expires", async () => {
    const { db } = await getTestDb();
    const second = await secondHandle();
    cleanups.push(second.close);
    const clock = new ManualClock();
    const table = await createJobTable(db);
    const stuckIds = await seedJobs(db, table, 30, clock.now());

    // Worker A claims the rows and never finishes: its handler hangs and it is never stopped.
    const aClaimed = deferred<bigint[]>();
    const queueA = testQueue(table, {
      leaseMs: LEASE_MS,
      handleBatch: (rows) => {
        aClaimed.resolve(rows.map((row) => row.id).sort((x, y) => (x < y ? -1 : 1)));
        return new Promise(() => {});
      },
    });
    const a = new QueueRunner({ database: await getTestDb(), queues: [queueA], clock, pollMs: 60_000, listen: false });
    await a.start();
    expect(await within(aClaimed.promise, 5_000, 'worker A to claim')).toEqual(stuckIds);

    const handledByB: bigint[] = [];
    let wanted = 0;
    let reached = deferred();
    const queueB = testQueue(table, {
      leaseMs: LEASE_MS,
      handleBatch: async (rows: TestJob[]) => {
        handledByB.push(...rows.map((row) => row.id));
        if (handledByB.length >= wanted) reached.resolve();
        return rows.map((row) => ({ id: row.id, outcome: 'done' as const }));
      },
    });
    const b = new QueueRunner({ database: second.handle, queues: [queueB], clock, pollMs: 60_000 });
    cleanups.push(
      () => b.stop(),
      () => a.stop({ timeoutMs: 0 }),
    );
    await b.start();

    // One millisecond before expiry the rows are still A's: a claim at that time finds nothing of them.
    clock.advance(LEASE_MS - 1);
    const early = await claimDue(db, queueB, clock.now());
    expect(early.rows).toEqual([]);

    // B is alive and claiming: a fresh row reaches it, A's rows do not.
    const controlId = await seedJob(db, table, clock.now());
    wanted = 1;
    b.notify(table);
    await within(reached.promise, 5_000, 'B to handle the control row');
    expect(handledByB).toEqual([controlId]);

    // Past the lease, B takes A's rows over.
    clock.advance(2);
    wanted = 1 + stuckIds.length;
    reached = deferred();
    b.wake();
    await within(reached.promise, 5_000, "B to take over A's rows");
    expect(handledByB.slice(1).sort((x, y) => (x < y ? -1 : 1))).toEqual(stuckIds);

    await until(async () => (await readJobs(db, table)).every((row) => row.status === 'DONE'), 'rows finalised');
    const rows = await readJobs(db, table);
    // Claimed twice (A, then B): the attempt A's death cost is counted.
    expect(rows.filter((row) => stuckIds.includes(row.id)).every((row) => row.attempts === 2)).toBe(true);

    // Stopping the abandoned A gives nothing back: the rows are B's (done) now, not A's.
    expect(await a.stop({ timeoutMs: 0 })).toEqual({ releasedRows: 0, releasedChores: 0 });
  });
});
