// On a PostgreSQL server a claim runs as a named prepared statement, and it must be one PostgreSQL
// can keep a generic plan for. With the batch size as a parameter (`LIMIT $4`), the generic plan is
// costed as if the LIMIT kept a tenth of the table, so every claim was planned afresh (for the
// sms-delivery claim, joined to its messages, a large share of its database time: bench/RESULTS.md).
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { createLogSmsProvider } from '../../src/adapters/sms-provider/index.ts';
import { connectDatabase, type DbHandle } from '../../src/db/connect.ts';
import { createTeam } from '../../src/accounts/queries.ts';
import { claimDue } from '../../src/queue/claim.ts';
import { deleteSmsOfTeam, smsDeliveryQueue } from '../../src/sms/index.ts';
import { getTestDb, testDatabaseUrl } from '../support/db.ts';

const url = testDatabaseUrl();
let handle: DbHandle | null = null;
afterAll(async () => handle?.close());

describe.runIf(url !== null)('claim plans on PostgreSQL', () => {
  it('settles on a generic plan for the sms-delivery claim instead of planning every batch', async () => {
    const shared = await getTestDb(); // migrated
    // A crowded queue of due messages, with statistics that know it, as a busy deployment's: on
    // near-empty tables every plan looks cheap. They are due in 2000 and the claims run then, so
    // that no other test's message is claimed; deleteSmsOfTeam takes them away, whatever the outcome.
    const dueAt = new Date('2000-01-01T00:00:00Z');
    const team = await createTeam(shared.db, { name: 'claim-plan' }, new Date());
    try {
      await sql`
        WITH stored AS (
          INSERT INTO sms_messages (id, team_id, to_number, to_prefix, country, sender_id, body, encoding, segments,
            currency, charge_minor, status, created_at, updated_at)
          SELECT 'sms_claimplan' || i, ${team.id}, '+14155550100', '+1415555', 'US', 'Herald', 'Your code is 123456',
            'GSM-7', 1, 'USD', 1, 'queued', now(), now()
          FROM generate_series(1, 20000) AS i
          RETURNING id, to_number, sender_id, body
        )
        INSERT INTO sms_deliveries (sms_id, team_id, created_at, next_attempt_at, to_number, sender_id, body)
        SELECT id, ${team.id}, now(), ${dueAt}, to_number, sender_id, body FROM stored`.execute(shared.db);
      await sql`ANALYZE sms_messages, sms_deliveries`.execute(shared.db);
      // One connection, so every claim runs as the same prepared statement in one session.
      handle = await connectDatabase({ databaseUrl: url, dataDir: null, poolSize: 1 });
      const queue = smsDeliveryQueue({ provider: createLogSmsProvider(async () => {}) });
      for (let i = 0; i < 10; i++) await claimDue(handle.db, queue, new Date(dueAt.getTime() + 1000));
      const plans = await sql<{ generic_plans: string; custom_plans: string }>`
        SELECT generic_plans, custom_plans FROM pg_prepared_statements
        WHERE statement LIKE ${'%UPDATE "sms_deliveries" SET%'}`.execute(handle.db);
      expect(plans.rows).toHaveLength(1);
      // PostgreSQL plans the first five executions for their values, then compares a generic plan.
      expect(Number(plans.rows[0]!.custom_plans)).toBeLessThanOrEqual(5);
      expect(Number(plans.rows[0]!.generic_plans)).toBeGreaterThanOrEqual(5);
    } finally {
      await deleteSmsOfTeam(shared.db, team.id);
      await shared.db.deleteFrom('teams').where('id', '=', team.id).execute();
    }
  });
});
