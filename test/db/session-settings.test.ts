// Herald's PostgreSQL sessions run without JIT: its coalesced statements (jsonb_to_recordset, which
// the planner estimates at 100 rows, times their subqueries) pass jit_above_cost once tables grow,
// and compiling them cost far more than running them, at every execution (src/db/connect.ts).
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { getTestDb } from '../support/db.ts';

describe.skipIf(!process.env.DATABASE_URL)('PostgreSQL session settings', () => {
  it('turns JIT off on every pooled connection', async () => {
    const { db } = await getTestDb();
    // More at once than the pool holds idle, so that several connections answer.
    const answers = await Promise.all(
      Array.from({ length: 8 }, () =>
        sql<{ jit: string }>`SELECT current_setting('jit') AS jit, pg_sleep(0.05)`.execute(db),
      ),
    );
    expect(new Set(answers.map((result) => result.rows[0]!.jit))).toEqual(new Set(['off']));
  });
});
