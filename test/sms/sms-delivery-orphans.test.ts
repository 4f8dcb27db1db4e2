// A queue row whose message is gone (deleted by something other than deleteSmsOfTeam) leaves the
// delivery queue at its first outcome instead of being claimed again and again.
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.ts';
import { createSmsTeam } from '../support/factory.ts';
import { deliverDueSms, sendTestSms } from '../support/sms-delivery.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const queued = async (ids: readonly string[]) =>
  (await t.deps.db.selectFrom('sms_deliveries').select('sms_id').where('sms_id', 'in', ids).execute()).length;

it("drops the queue row of a deleted message and still sends the batch's others", async () => {
  const team = await createSmsTeam(t.app);
  const gone = await sendTestSms(t, team, '+14155550181');
  const kept = await sendTestSms(t, team, '+14155550182');
  await sql`DELETE FROM sms_messages WHERE id = ${gone.id}`.execute(t.deps.db);
  expect(await queued([gone.id, kept.id])).toBe(2);

  await deliverDueSms(t);

  expect(await queued([gone.id, kept.id])).toBe(0);
  const { status } = await t.deps.db
    .selectFrom('sms_messages')
    .select('status')
    .where('id', '=', kept.id)
    .executeTakeFirstOrThrow();
  expect(status).not.toBe('queued');
});
