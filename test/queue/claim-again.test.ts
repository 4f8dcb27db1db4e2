// claimAgainAtOnce: a queue whose rows come back due when written back done (a campaign sending
// batch after batch) is claimed again at once, not after the poll interval: the claim that writes
// a batch back cannot see its own rows due again.
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { QueueRunner } from '../../src/queue/index.ts';
import { getTestDb } from '../support/db.ts';
import { createJobTable, readJobs, seedJob, testQueue, until, type TestJob } from './support.ts';

describe('claimAgainAtOnce', () => {
  const runners: QueueRunner[] = [];
  afterAll(async () => {
    for (const runner of runners) await runner.stop();
  });

  it('takes a row that is due again after its batch at once, round after round', async () => {
    const database = await getTestDb();
    const { db } = database;
    const table = await createJobTable(db);
    const rounds: number[] = [];
    const queue = testQueue(table, {
      claimAgainAtOnce: true,
      handleRow: async (row: TestJob) => {
        rounds.push(Date.now());
        await sql`UPDATE ${sql.table(table)} SET payload = payload || 'x' WHERE id = ${row.id}`.execute(db);
      },
      // Due again (still QUEUED) until it has been handled five times.
      onDone: sql`status = CASE WHEN length(payload) >= 6 THEN 'DONE' ELSE 'QUEUED' END`,
    });
    await seedJob(db, table, new Date());
    // A 60 s poll and no notifications: only the option makes the later rounds come before the bound.
    const runner = new QueueRunner({ database, queues: [queue], pollMs: 60_000, listen: false });
    runners.push(runner);
    await runner.start();
    await until(async () => (await readJobs(db, table))[0]!.status === 'DONE', 'the fifth round', 10_000);
    expect(rounds).toHaveLength(5);
  });
});
