// Crash tests on PostgreSQL: kill a Herald process while one of its transactions waits for a row the
// test holds, so that the kill lands at a known point inside that transaction, deterministically.
import { sql, type RawBuilder } from 'kysely';
import { expect } from 'vitest';
import { connectDatabase } from '../../src/db/connect.ts';
import { until, waitForExit, type HeraldProcess } from './spawn.ts';

/**
 * Holds the rows `lock` takes (a SELECT … FOR UPDATE) in a transaction of its own, runs `start`
 * (which sets the process's worker going), waits until a statement whose text names `waitingOn`
 * waits for a lock, kills `process` with SIGKILL there, then lets the held transaction roll back.
 */
export async function killWhileBlocked(
  databaseUrl: string,
  process: HeraldProcess,
  o: { lock: RawBuilder<unknown>; waitingOn: string; start: () => Promise<unknown> },
): Promise<void> {
  const held = await connectDatabase({ databaseUrl, dataDir: null });
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let locked!: () => void;
  const isLocked = new Promise<void>((resolve) => (locked = resolve));
  const holder = held.db
    .transaction()
    .execute(async (tx) => {
      await o.lock.execute(tx);
      locked();
      await released;
      throw new Error('rolled back on purpose');
    })
    .catch(() => undefined);
  try {
    await isLocked;
    await o.start();
    await until(`a statement blocked at ${o.waitingOn}`, 60_000, async () => {
      const { rows } = await sql<{ n: number }>`SELECT count(*)::integer AS n FROM pg_stat_activity
        WHERE datname = current_database() AND wait_event_type = 'Lock' AND query ILIKE ${`%${o.waitingOn}%`}`.execute(
        held.db,
      );
      return rows[0]!.n > 0 ? true : undefined;
    });
    process.kill('SIGKILL');
    expect(await waitForExit(process, 10_000)).toEqual({ code: null, signal: 'SIGKILL' });
  } finally {
    release();
    await holder;
    await held.close();
  }
}
