// Failed rows come back later (exponential backoff with jitter) and fail for good after maxAttempts.
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/platform/clock.ts';
import {
  claimDue,
  PermanentJobError,
  QueueRunner,
  retryDelayMs,
  type JobOutcome,
  type Queue,
} from '../../src/queue/index.ts';
import { LEASE_EXPIRED_ERROR } from '../../src/queue/sort-outcomes.ts';
import { getTestDb } from '../support/db.ts';
import {
  createJobTable,
  deferred,
  readJobs,
  seedJob,
  seedJobs,
  testQueue,
  until,
  within,
  type TestJob,
} from './support.ts';

const BACKOFF = { baseMs: 10_000, maxMs: 3_600_000, jitter: 'proportional' as const };

describe('retryDelayMs', () => {
  it('grows exponentially within ±20% and never passes the cap', () => {
    for (const [attempts, expected] of [
      [1, 10_000],
      [2, 20_000],
      [3, 40_000],
      [6, 320_000],
    ] as const) {
      expect(retryDelayMs(attempts, BACKOFF, () => 0)).toBe(expected * 0.8);
      expect(retryDelayMs(attempts, BACKOFF, () => 0.5)).toBe(expected);
      expect(retryDelayMs(attempts, BACKOFF, () => 0.999999)).toBeLessThanOrEqual(expected * 1.2);
      const delay = retryDelayMs(attempts, BACKOFF);
      expect(delay).toBeGreaterThanOrEqual(expected * 0.8);
      expect(delay).toBeLessThanOrEqual(expected * 1.2);
    }
    expect(retryDelayMs(40, BACKOFF, () => 0.999999)).toBe(3_600_000);
    expect(retryDelayMs(2000, BACKOFF, () => 0)).toBe(3_600_000 * 0.8);
  });

  it('with full jitter, lies anywhere between 0 and the exponential delay', () => {
    const full = { ...BACKOFF, jitter: 'full' as const };
    expect(retryDelayMs(3, full, () => 0)).toBe(0);
    expect(retryDelayMs(3, full, () => 0.25)).toBe(10_000);
    for (let i = 0; i < 100; i++) expect(retryDelayMs(3, full)).toBeLessThanOrEqual(40_000);
  });
});

describe('retries through the runner', () => {
  const runners: QueueRunner[] = [];
  afterAll(async () => {
    await Promise.all(runners.map((runner) => runner.stop()));
  });

  async function startRunner(queue: Queue, clock: ManualClock): Promise<QueueRunner> {
    const runner = new QueueRunner({
      database: await getTestDb(),
      queues: [queue],
      clock,
      pollMs: 60_000,
      listen: false,
    });
    runners.push(runner);
    await runner.start();
    return runner;
  }

  it('reschedules with backoff, retries when due, and fails after maxAttempts', async () => {
    const { db } = await getTestDb();
    const clock = new ManualClock();
    const table = await createJobTable(db);
    const badIds = await seedJobs(db, table, 5, clock.now(), 'bad');
    const goodId = await seedJob(db, table, clock.now(), 'good');
    let calls = 0;
    const queue = testQueue(table, {
      maxAttempts: 3,
      backoff: BACKOFF,
      handleBatch: async (rows: TestJob[]) => {
        calls++;
        return rows.map((row): JobOutcome =>
          row.payload?.startsWith('good')
            ? { id: row.id, outcome: 'done' }
            : { id: row.id, outcome: 'retry', error: `boom ${row.attempts}` },
        );
      },
    });
    const bad = async () => (await readJobs(db, table)).filter((row) => badIds.includes(row.id));
    const settledAfter = (attempts: number) => async () =>
      (await bad()).every((row) => row.attempts === attempts && row.lease_until === null);
    const runner = await startRunner(queue, clock);

    // Attempt 1 fails: due again in 10 s ± 20%, lease cleared, error kept.
    await until(settledAfter(1), 'first attempt finalised');
    let now = clock.now().getTime();
    let rows = await bad();
    for (const row of rows) {
      expect(row.status).toBe('QUEUED');
      expect(row.last_error).toBe('boom 1');
      expect(row.run_at.getTime()).toBeGreaterThanOrEqual(now + 8_000);
      expect(row.run_at.getTime()).toBeLessThanOrEqual(now + 12_000);
    }
    expect(new Set(rows.map((row) => row.run_at.getTime())).size).toBeGreaterThan(1); // jittered apart
    expect((await readJobs(db, table)).find((row) => row.id === goodId)?.status).toBe('DONE');

    // Before the earliest retry time nothing is due.
    clock.set(new Date(Math.min(...rows.map((row) => row.run_at.getTime())) - 1));
    expect((await claimDue(db, queue, clock.now())).rows).toEqual([]);

    // Attempt 2 once the clock reaches them: 20 s ± 20% this time.
    clock.set(new Date(Math.max(...rows.map((row) => row.run_at.getTime()))));
    runner.wake();
    await until(settledAfter(2), 'second attempt finalised');
    now = clock.now().getTime();
    rows = await bad();
    for (const row of rows) {
      expect(row.last_error).toBe('boom 2');
      expect(row.run_at.getTime()).toBeGreaterThanOrEqual(now + 16_000);
      expect(row.run_at.getTime()).toBeLessThanOrEqual(now + 24_000);
    }

    // Attempt 3 is the last: the rows go to the failure finaliser.
    clock.set(new Date(Math.max(...rows.map((row) => row.run_at.getTime()))));
    runner.wake();
    await until(async () => (await bad()).every((row) => row.status === 'FAILED'), 'rows failed');
    rows = await bad();
    expect(rows.every((row) => row.attempts === 3 && row.last_error === 'boom 3' && row.lease_until === null)).toBe(
      true,
    );
    expect(calls).toBe(3);
  });

  it('honours an explicit retryAt, retries a batch whose handler threw, and fails rows that kept killing workers', async () => {
    const { db } = await getTestDb();
    const clock = new ManualClock();
    const table = await createJobTable(db);
    const laterId = await seedJob(db, table, clock.now(), 'later');
    const throwId = await seedJob(db, table, clock.now(), 'throw');
    // A row whose previous holders all died: 3 claims used, last lease long expired.
    const crashId = await seedJob(db, table, clock.now(), 'crash');
    await sql`UPDATE ${sql.table(table)} SET attempts = 3, lease_until = ${new Date(clock.now().getTime() - 1)}::timestamptz
      WHERE id = ${crashId}`.execute(db);
    const seen: string[] = [];
    const retryAt = new Date(clock.now().getTime() + 300_000);
    const queue = testQueue(table, {
      maxAttempts: 3,
      handleBatch: async (rows: TestJob[]) => {
        seen.push(...rows.map((row) => row.payload ?? ''));
        if (rows.some((row) => row.payload === 'throw1')) throw new Error('handler exploded');
        return rows.map((row): JobOutcome => ({ id: row.id, outcome: 'retry', error: 'later', retryAt }));
      },
      batchSize: 1,
    });
    await startRunner(queue, clock);
    await until(
      async () =>
        (await readJobs(db, table)).every((row) => row.lease_until === null && row.attempts >= 1 && row.attempts !== 3),
      'all three finalised',
    );
    const rows = await readJobs(db, table);
    const byId = new Map(rows.map((row) => [row.id, row]));
    expect(byId.get(laterId)?.run_at).toEqual(retryAt);
    expect(byId.get(throwId)?.last_error).toBe('handler exploded');
    expect(byId.get(throwId)?.status).toBe('QUEUED');
    expect(byId.get(crashId)).toMatchObject({ status: 'FAILED', attempts: 4, last_error: LEASE_EXPIRED_ERROR });
    expect(seen).not.toContain('crash1'); // failed without being handed to the handler again
  });

  it('with handleRow: resolve is done, a throw is a retry, PermanentJobError fails at once', async () => {
    const { db } = await getTestDb();
    const clock = new ManualClock();
    const table = await createJobTable(db);
    const okId = await seedJob(db, table, clock.now(), 'ok');
    const flakyId = await seedJob(db, table, clock.now(), 'flaky');
    const permanentId = await seedJob(db, table, clock.now(), 'permanent');
    const handled = deferred();
    const queue = testQueue(table, {
      handleRow: async (row: TestJob) => {
        if (row.payload === 'flaky1') throw new Error('timeout talking to the relay');
        if (row.payload === 'permanent1') throw new PermanentJobError('mailbox does not exist');
        handled.resolve();
      },
    });
    await startRunner(queue, clock);
    await within(handled.promise, 5_000, 'handler');
    await until(async () => (await readJobs(db, table)).every((row) => row.lease_until === null), 'finalised');
    const byId = new Map((await readJobs(db, table)).map((row) => [row.id, row]));
    expect(byId.get(okId)?.status).toBe('DONE');
    expect(byId.get(flakyId)).toMatchObject({ status: 'QUEUED', last_error: 'timeout talking to the relay' });
    expect(byId.get(flakyId)?.run_at.getTime()).toBeGreaterThan(clock.now().getTime());
    expect(byId.get(permanentId)).toMatchObject({
      status: 'FAILED',
      last_error: 'mailbox does not exist',
      attempts: 1,
    });
  });
});
