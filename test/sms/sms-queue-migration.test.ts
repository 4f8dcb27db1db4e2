// Migration 0037 on a database that already holds messages: queued ones move to the delivery queue
// with their lease and attempts, provider ids to their table, a failed message without a reason
// gets the plain "unknown" one, and nothing else changes. On its own in-memory PGlite, migrated to
// 0036 first, so that the old columns exist to move from. Then 0040 copies what sending needs into
// the queue rows.
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { connectDatabase, type DbHandle } from '../../src/db/connect.ts';
import { listMigrations } from '../../src/db/migrate.ts';

let handle: DbHandle;
const lease = '2026-11-28T10:00:00.000Z';

beforeAll(async () => {
  handle = await connectDatabase({ databaseUrl: null, dataDir: null });
  for (const migration of listMigrations().filter((m) => m.version < 37)) await handle.execScript(migration.sql);
  await handle.execScript(`
    INSERT INTO teams (id, name) VALUES (1, 'before 0037');
    INSERT INTO sms_messages (id, team_id, to_number, to_prefix, country, sender_id, body, encoding, segments,
      currency, charge_minor, status, reason_code, reason_message, provider, provider_message_id,
      next_attempt_at, lease_until, attempts, recorded_attempts, last_error, created_at, updated_at)
    VALUES
      ('sms_queued', 1, '+14155550101', '+1415555', 'US', 'Herald', 'a', 'GSM-7', 1, 'USD', 1, 'queued', NULL, NULL,
        NULL, NULL, '2026-11-28T09:00:00Z', '${lease}', 2, 1, 'timeout', now(), now()),
      ('sms_sent', 1, '+14155550102', '+1415555', 'US', 'Herald', 'b', 'GSM-7', 1, 'USD', 1, 'sent', NULL, NULL,
        'twilio', 'SM-sent', NULL, NULL, 1, 0, NULL, now(), now()),
      ('sms_failed', 1, '+14155550103', '+1415555', 'US', 'Herald', 'c', 'GSM-7', 1, 'USD', 1, 'failed', NULL, NULL,
        'twilio', 'SM-failed', NULL, NULL, 1, 0, NULL, now(), now()),
      ('sms_rejected', 1, '+14155550104', '+1415555', 'US', 'Herald', 'd', 'GSM-7', 1, 'USD', 1, 'rejected',
        'invalid_number', 'The number is not valid.', NULL, NULL, NULL, NULL, 1, 0, NULL, now(), now());`);
  await handle.execScript(listMigrations().find((m) => m.version === 37)!.sql);
}, 60_000);
afterAll(async () => {
  await handle.close();
});

it('moves queued messages and provider ids out of sms_messages, keeping their state', async () => {
  const deliveries = await sql<{ sms_id: string; team_id: number; lease_until: Date; attempts: number }>`
    SELECT sms_id, team_id, lease_until, attempts, recorded_attempts, last_error FROM sms_deliveries`.execute(
    handle.db,
  );
  expect(deliveries.rows).toEqual([
    {
      sms_id: 'sms_queued',
      team_id: 1,
      lease_until: new Date(lease),
      attempts: 2,
      recorded_attempts: 1,
      last_error: 'timeout',
    },
  ]);
  const providerIds = await sql`SELECT * FROM sms_provider_ids ORDER BY sms_id`.execute(handle.db);
  expect(providerIds.rows).toEqual([
    { provider: 'twilio', provider_message_id: 'SM-failed', sms_id: 'sms_failed' },
    { provider: 'twilio', provider_message_id: 'SM-sent', sms_id: 'sms_sent' },
  ]);
});

it('gives a failed message without a reason the plain one and leaves the others as they were', async () => {
  const reasons = await sql<{ id: string; status: string; reason_code: string | null; reason_message: string | null }>`
    SELECT id, status, reason_code, reason_message FROM sms_messages ORDER BY id`.execute(handle.db);
  expect(reasons.rows).toEqual([
    {
      id: 'sms_failed',
      status: 'failed',
      reason_code: 'unknown',
      reason_message: 'The message could not be delivered.',
    },
    { id: 'sms_queued', status: 'queued', reason_code: null, reason_message: null },
    {
      id: 'sms_rejected',
      status: 'rejected',
      reason_code: 'invalid_number',
      reason_message: 'The number is not valid.',
    },
    { id: 'sms_sent', status: 'sent', reason_code: null, reason_message: null },
  ]);
  await expect(sql`UPDATE sms_messages SET status = 'failed' WHERE id = 'sms_sent'`.execute(handle.db)).rejects.toThrow(
    /sms_messages_reason_when_unsuccessful/,
  );
});

it('copies what sending needs into the queue rows (0040), dropping a row whose message is gone', async () => {
  await handle.execScript(`
    INSERT INTO sms_deliveries (sms_id, team_id, created_at, next_attempt_at) VALUES ('sms_gone', 1, now(), now());`);
  for (const migration of listMigrations().filter((m) => m.version > 37 && m.version <= 40))
    await handle.execScript(migration.sql);
  const deliveries = await sql`
    SELECT sms_id, to_number, sender_id, body, charge_transaction_id, attempts FROM sms_deliveries`.execute(handle.db);
  expect(deliveries.rows).toEqual([
    {
      sms_id: 'sms_queued',
      to_number: '+14155550101',
      sender_id: 'Herald',
      body: 'a',
      charge_transaction_id: null,
      attempts: 2,
    },
  ]);
});
