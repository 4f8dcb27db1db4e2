// On a PostgreSQL server, statements with parameters run as named prepared statements (parsed once
// per connection), with at most NAMED_PER_CONNECTION names per connection. PGlite has nothing to name.
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { connectDatabase, type DbHandle } from '../../src/db/connect.ts';
import { NAMED_PER_CONNECTION } from '../../src/db/prepared-pool.ts';
import { testDatabaseUrl } from '../support/db.ts';

const url = testDatabaseUrl();
let handle: DbHandle | null = null;
afterAll(async () => handle?.close());

describe.runIf(url !== null)('prepared statements on PostgreSQL', () => {
  it('names a parameterised statement once per connection and reuses it; parameterless ones stay unnamed', async () => {
    // One connection, so every statement runs in the same session.
    handle = await connectDatabase({ databaseUrl: url, dataDir: null, poolSize: 1 });
    const { db } = handle;
    for (const n of [1, 2, 3]) {
      const row = await sql<{ v: number }>`SELECT ${n}::int + 1 AS v`.execute(db);
      expect(row.rows[0]!.v).toBe(n + 1);
    }
    await sql`SELECT 42 AS unnamed`.execute(db);
    const prepared = await sql<{
      statement: string;
    }>`SELECT statement FROM pg_prepared_statements WHERE statement LIKE ${'%::int + 1 AS v%'}`.execute(db);
    expect(prepared.rows).toHaveLength(1);
    const unnamed = await sql<{
      n: string;
    }>`SELECT count(*) AS n FROM pg_prepared_statements WHERE statement LIKE ${'%42 AS unnamed%'}`.execute(db);
    expect(Number(unnamed.rows[0]!.n)).toBe(0);
  });

  it(`names at most ${NAMED_PER_CONNECTION} distinct statements per connection; the rest still run`, async () => {
    const own = await connectDatabase({ databaseUrl: url, dataDir: null, poolSize: 1 });
    try {
      for (let i = 0; i < NAMED_PER_CONNECTION + 20; i++) {
        const row = await sql<{ v: number }>`SELECT ${i}::int AS v, ${sql.lit(i)} AS variant`.execute(own.db);
        expect(row.rows[0]!.v).toBe(i);
      }
      const count = await sql<{
        n: string;
      }>`SELECT count(*) AS n FROM pg_prepared_statements WHERE statement LIKE ${'%AS variant%'}`.execute(own.db);
      // The counting statement itself is named too, so at most the cap minus one variants are.
      expect(Number(count.rows[0]!.n)).toBeLessThanOrEqual(NAMED_PER_CONNECTION);
      expect(Number(count.rows[0]!.n)).toBeGreaterThan(NAMED_PER_CONNECTION - 5);
    } finally {
      await own.close();
    }
  });
});
