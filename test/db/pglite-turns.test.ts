// The embedded database runs one unit of work per turn of the event loop (src/db/pglite-turns.ts):
// statements queued together leave room for timers and I/O between them, a transaction is one unit,
// and a failed unit does not hold up the next.
import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { oneUnitPerTurn } from '../../src/db/pglite-turns.ts';

let raw: PGlite;
let pglite: PGlite;
beforeAll(async () => {
  raw = await PGlite.create();
  pglite = oneUnitPerTurn(raw);
});
afterAll(async () => raw?.close());

/** A statement that keeps PGlite (and so this thread) busy for some milliseconds. */
const BUSY = 'SELECT count(*) FROM generate_series(1, 300000)';

describe('one unit of work per turn', () => {
  it('lets a timer run between statements queued together', async () => {
    const order: string[] = [];
    const statements = Array.from({ length: 5 }, (_, i) => pglite.query(BUSY).then(() => order.push(`statement ${i}`)));
    setTimeout(() => order.push('timer'), 0);
    await Promise.all(statements);
    expect(order).toHaveLength(6);
    // Without the turns, the five ran back to back before the timer.
    expect(order.indexOf('timer')).toBeLessThan(2);
  });

  it('runs a transaction as one unit, in the order asked', async () => {
    const order: string[] = [];
    const transaction = pglite.transaction(async (tx) => {
      await tx.query(BUSY);
      order.push('transaction, first');
      await tx.query('SELECT 1');
      order.push('transaction, second');
    });
    const after = pglite.query('SELECT 1').then(() => order.push('statement after'));
    await Promise.all([transaction, after]);
    expect(order).toEqual(['transaction, first', 'transaction, second', 'statement after']);
  });

  it('goes on after a unit fails', async () => {
    const failed = pglite.query('SELECT * FROM no_such_table');
    const next = pglite.query<{ n: number }>('SELECT 2 AS n');
    await expect(failed).rejects.toThrow(/no_such_table/);
    expect((await next).rows).toEqual([{ n: 2 }]);
    expect(pglite.closed).toBe(false);
  });
});
