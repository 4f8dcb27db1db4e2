// A statement that PostgreSQL fails to break a deadlock is tried again (retryOnDeadlock, used by the
// queue's finalise-and-claim statement): two transactions take two rows in opposite orders.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { retryOnDeadlock } from '../../src/db/retry.ts';
import { getTestDb } from '../support/db.ts';

describe.skipIf(!process.env.DATABASE_URL)('retryOnDeadlock', () => {
  let db: Awaited<ReturnType<typeof getTestDb>>['db'];
  beforeAll(async () => {
    ({ db } = await getTestDb());
    await sql`CREATE TABLE IF NOT EXISTS deadlock_probe (id int PRIMARY KEY, n int NOT NULL)`.execute(db);
    await sql`INSERT INTO deadlock_probe VALUES (1, 0), (2, 0) ON CONFLICT DO NOTHING`.execute(db);
  });
  afterAll(() => sql`DROP TABLE deadlock_probe`.execute(db));

  /** Whether a session of this database waits for a row lock on the probe table's updates. */
  const waitingForALock = async () =>
    (
      await sql<{ n: number }>`SELECT count(*)::int AS n FROM pg_stat_activity
        WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE '%deadlock_probe SET n = n + 10%'`.execute(
        db,
      )
    ).rows[0]!.n > 0;

  it('runs a statement failed by a deadlock again, once the other side has gone on', async () => {
    let attempts = 0;
    let holderLocked!: () => void;
    const locked = new Promise<void>((resolve) => (holderLocked = resolve));
    // The other side: holds row 1, then (once the statement below waits for row 1) asks for row 2.
    const holder = db.transaction().execute(async (tx) => {
      // Its own deadlock check comes long after the statement's (1 s): on a loaded machine either
      // side's check could come first, and the side that checks first is the one failed.
      await sql`SET LOCAL deadlock_timeout = '20s'`.execute(tx);
      await sql`UPDATE deadlock_probe SET n = n + 1 WHERE id = 1`.execute(tx);
      holderLocked();
      await expect.poll(() => waitingForALock(), { timeout: 10_000 }).toBe(true);
      await sql`UPDATE deadlock_probe SET n = n + 1 WHERE id = 2`.execute(tx);
    });
    await locked;
    // One statement taking row 2, then row 1: its deadlock check comes first, so it is the one failed.
    const statement = retryOnDeadlock(() => {
      attempts++;
      return sql`WITH two AS (UPDATE deadlock_probe SET n = n + 10 WHERE id = 2 RETURNING id)
        UPDATE deadlock_probe SET n = n + 10 WHERE id = 1 AND EXISTS (SELECT 1 FROM two)`.execute(db);
    });
    await Promise.all([holder, statement]);
    expect(attempts).toBe(2);
    const rows = await sql<{ id: number; n: number }>`SELECT id, n FROM deadlock_probe ORDER BY id`.execute(db);
    expect(rows.rows).toEqual([
      { id: 1, n: 11 },
      { id: 2, n: 11 },
    ]);
  });
});
