// Nothing the provider says is lost, and nothing it may already have is sent again blindly:
// - a delivery report that arrives before the worker has recorded the provider's id (the id is
//   written with the batch's outcome, after its slowest call) is kept and applied once the id is;
// - a call the provider took but did not answer by the batch's deadline is looked up in Twilio's
//   Messages list on the next claim and recorded as found, not sent again; one Twilio does not have
//   is sent once more;
// - a provider that cannot be looked up (Termii) leaves such a message `sent` with its charge.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/app.ts';
import { bearer, createSmsTeam, type TestTeam } from '../support/factory.ts';
import type { FakeTwilio } from '../support/fake-twilio.ts';
import { TestDnsServer } from '../support/dns-server.ts';
import type { FakeTermii } from '../support/fake-termii.ts';
import {
  deliverDueSms,
  sendTestSms,
  smsRunner,
  startTermiiTestApp,
  startTwilioTestApp,
} from '../support/sms-delivery.ts';

const US = '+14155552671';
const NG = '+2348031234567';

async function smsOf(t: TestApp, team: TestTeam, id: string) {
  return (await t.app.inject({ url: `/api/v1/sms/${id}`, headers: bearer(team.key) })).json();
}

async function ledgerOf(t: TestApp, smsId: string): Promise<string[]> {
  const rows = await t.deps.db
    .selectFrom('wallet_transactions')
    .select('type')
    .where('reference', '=', smsId)
    .execute();
  return rows.map((row) => row.type).sort();
}

/** The sms.* webhook calls made for a message. */
async function smsEventsOf(t: TestApp, teamId: number, smsId: string): Promise<string[]> {
  const rows = await t.deps.db
    .selectFrom('webhook_calls')
    .select(['type', 'payload'])
    .where('team_id', '=', teamId)
    .execute();
  return rows.filter((row) => row.payload.includes(smsId)).map((row) => row.type);
}

describe('twilio', () => {
  let twilio: FakeTwilio;
  let t: TestApp;
  let callback: string;
  let close: () => Promise<void>;
  let dns: TestDnsServer;
  beforeAll(async () => {
    // A name for a webhook, so that the reports' sms.* events are recorded as calls.
    dns = await TestDnsServer.start();
    dns.set('hooks.example.test', 'A', [{ type: 'A', address: '127.0.0.1' }]);
    ({
      t,
      twilio,
      statusCallback: callback,
      close,
    } = await startTwilioTestApp({ dnsServers: [dns.address], webhookAllowCidrs: ['127.0.0.0/8'] }));
    // Twilio's dates follow the test's clock, which the tests move forward.
    twilio.now = () => t.clock.now();
  }, 60_000);
  afterAll(async () => {
    await close();
    await dns.close();
  });

  it('applies reports that came before the provider id was recorded, once it is, with their events', async () => {
    const team = await createSmsTeam(t.app);
    const hook = await t.app.inject({
      method: 'POST',
      url: '/api/v1/webhooks',
      headers: bearer(team.key),
      payload: { url: 'https://hooks.example.test/sms', eventTypes: ['sms.sent', 'sms.delivered'] },
    });
    expect(hook.statusCode, hook.body).toBe(201);
    const sms = await sendTestSms(t, team, US);
    const requests = twilio.requests.length;
    twilio.enqueue('accept-held');
    const runner = smsRunner(t);
    await runner.start();
    try {
      runner.notify('sms-delivery');
      await twilio.waitForRequests(requests + 1);
      const handed = twilio.messages.at(-1)!;
      // Twilio reports before it has answered Herald's request: delivered first, then sent.
      expect((await twilio.postStatus(callback, { sid: handed.sid, status: 'delivered' })).status).toBe(200);
      expect((await twilio.postStatus(callback, { sid: handed.sid, status: 'sent' })).status).toBe(200);
      expect((await smsOf(t, team, sms.id)).status).toBe('queued');
      twilio.releaseHeld();
      await expect.poll(async () => (await smsOf(t, team, sms.id)).status, { timeout: 20_000 }).toBe('delivered');
      await runner.idle();
    } finally {
      await runner.stop();
    }
    const read = await smsOf(t, team, sms.id);
    expect(read.deliveredAt).not.toBeNull();
    // Each once (the test clock stands still, so both carry the same time).
    expect((await smsEventsOf(t, team.id, sms.id)).sort()).toEqual(['sms.delivered', 'sms.sent']);
    const waiting = await t.deps.db.selectFrom('sms_pending_reports').selectAll().execute();
    expect(waiting.filter((row) => row.provider_message_id === twilio.messages.at(-1)!.sid)).toEqual([]);
  });

  it('answers a report for an id no message has yet 200 and keeps it (Twilio does not retry a 2xx)', async () => {
    const sid = `SM${'0'.repeat(31)}9`;
    expect((await twilio.postStatus(callback, { sid, status: 'delivered' })).status).toBe(200);
    const kept = await t.deps.db
      .selectFrom('sms_pending_reports')
      .select(['provider', 'status'])
      .where('provider_message_id', '=', sid)
      .execute();
    expect(kept).toEqual([{ provider: 'twilio', status: 'delivered' }]);
  });

  it('looks up a call the provider took but did not answer by the deadline instead of sending it again', async () => {
    const team = await createSmsTeam(t.app);
    const sms = await sendTestSms(t, team, US);
    const sends = twilio.sendRequests;
    twilio.enqueue('accept-silently');
    await deliverDueSms(t, { callsDeadlineMs: 300 });
    expect((await smsOf(t, team, sms.id)).status).toBe('queued');
    const queued = await t.deps.db
      .selectFrom('sms_deliveries')
      .select(['last_error', 'handed_off'])
      .where('sms_id', '=', sms.id)
      .executeTakeFirstOrThrow();
    expect(queued.last_error).toMatch(/^Twilio: no answer within 0.3 s/);
    expect(queued.handed_off).toBe(true);

    t.clock.advance(15 * 60_000);
    await deliverDueSms(t);
    const read = await smsOf(t, team, sms.id);
    expect(read.status).toBe('sent');
    expect(twilio.sendRequests).toBe(sends + 1);
    expect(await ledgerOf(t, sms.id)).toEqual(['SMS_CHARGE']);
    // Its id was recorded from the list: the provider's reports apply.
    const sid = twilio.messages.at(-1)!.sid;
    expect((await twilio.postStatus(callback, { sid, status: 'delivered' })).status).toBe(200);
    expect((await smsOf(t, team, sms.id)).status).toBe('delivered');
  });

  it('records the status the list gives (delivered) for a message whose worker vanished mid-send', async () => {
    const team = await createSmsTeam(t.app);
    const sms = await sendTestSms(t, team, US);
    const sends = twilio.sendRequests;
    const requests = twilio.requests.length;
    twilio.enqueue('accept-silently');
    const first = smsRunner(t);
    await first.start();
    first.notify('sms-delivery');
    await twilio.waitForRequests(requests + 1);
    // Twilio delivers it meanwhile; the report finds no id and waits.
    const sid = twilio.messages.at(-1)!.sid;
    expect((await twilio.postStatus(callback, { sid, status: 'delivered' })).status).toBe(200);
    // The first worker's lease runs out (as a killed one's would); a second finds the message due.
    t.clock.advance(3 * 60_000);
    await deliverDueSms(t);
    const read = await smsOf(t, team, sms.id);
    expect(read.status).toBe('delivered');
    expect(read.reason).toBeNull();
    expect(twilio.sendRequests).toBe(sends + 1);
    expect(await ledgerOf(t, sms.id)).toEqual(['SMS_CHARGE']);
    await first.stop({ timeoutMs: 100 });
  });

  it('sends once more a message the list does not have (the provider never took it), charged once', async () => {
    const team = await createSmsTeam(t.app);
    const sms = await sendTestSms(t, team, US);
    const sends = twilio.sendRequests;
    const taken = twilio.messages.length;
    twilio.enqueue('hang');
    await deliverDueSms(t, { callsDeadlineMs: 300 });
    expect((await smsOf(t, team, sms.id)).status).toBe('queued');
    t.clock.advance(15 * 60_000);
    await deliverDueSms(t);
    expect((await smsOf(t, team, sms.id)).status).toBe('sent');
    expect(twilio.sendRequests).toBe(sends + 2);
    expect(twilio.messages.length).toBe(taken + 1);
    expect(await ledgerOf(t, sms.id)).toEqual(['SMS_CHARGE']);
  });

  it('gives two identical texts to one number two different provider messages', async () => {
    const team = await createSmsTeam(t.app);
    const one = await sendTestSms(t, team, '+14155552699');
    const two = await sendTestSms(t, team, '+14155552699');
    const sends = twilio.sendRequests;
    twilio.enqueue('accept-silently', 'accept-silently');
    // Long enough for both calls to reach the fake on a loaded machine before the deadline cuts them.
    await deliverDueSms(t, { callsDeadlineMs: 2_000 });
    t.clock.advance(15 * 60_000);
    await deliverDueSms(t);
    expect(twilio.sendRequests).toBe(sends + 2);
    const ids = await t.deps.db
      .selectFrom('sms_messages')
      .select(['status', 'provider_message_id'])
      .where('id', 'in', [one.id, two.id])
      .execute();
    expect(ids.map((row) => row.status)).toEqual(['sent', 'sent']);
    expect(new Set(ids.map((row) => row.provider_message_id)).size).toBe(2);
  });
});

describe('termii (no lookup)', () => {
  let termii: FakeTermii;
  let t: TestApp;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ t, termii, close } = await startTermiiTestApp());
  }, 60_000);
  afterAll(() => close());

  it('leaves a message unanswered by the deadline `sent` with its charge, never sent again', async () => {
    const team = await createSmsTeam(t.app);
    const sms = await sendTestSms(t, team, NG);
    const requests = termii.requests.length;
    termii.enqueue('hang');
    await deliverDueSms(t, { callsDeadlineMs: 300 });
    t.clock.advance(15 * 60_000);
    await deliverDueSms(t);
    const read = await smsOf(t, team, sms.id);
    expect(read.status).toBe('sent');
    expect(read.reason).toBeNull();
    expect(termii.requests.length).toBe(requests + 1);
    expect(await ledgerOf(t, sms.id)).toEqual(['SMS_CHARGE']);
  });

  it("lets the provider's report decide a message left `sent`: found by its number, `failed` returns the charge", async () => {
    const team = await createSmsTeam(t.app);
    const to = '+2348031234599';
    const sms = await sendTestSms(t, team, to);
    termii.enqueue('hang');
    await deliverDueSms(t, { callsDeadlineMs: 300 });
    t.clock.advance(15 * 60_000);
    await deliverDueSms(t);
    expect((await smsOf(t, team, sms.id)).status).toBe('sent');

    // Termii reports the message it had under its own id, naming the number: kept, not tied at once
    // (a newer message to the number might be the one reported, its id not recorded yet).
    const url = `${t.deps.config.publicUrl}/hooks/sms/termii`;
    const report = { messageId: '3017000000000099', status: 'Message Failed', receiver: to.slice(1) };
    expect((await termii.postReport(url, report)).status).toBe(200);
    expect((await smsOf(t, team, sms.id)).status).toBe('sent');

    // Minutes later, the next batch the worker writes ties it to the message waiting for its id.
    t.clock.advance(4 * 60_000);
    await sendTestSms(t, team, '+2348031234598');
    await deliverDueSms(t);
    const read = await smsOf(t, team, sms.id);
    expect(read.status).toBe('failed');
    expect(await ledgerOf(t, sms.id)).toEqual(['SMS_CHARGE', 'SMS_RELEASE']);
    const row = await t.deps.db
      .selectFrom('sms_messages')
      .select('provider_message_id')
      .where('id', '=', sms.id)
      .executeTakeFirstOrThrow();
    expect(row.provider_message_id).toBe(report.messageId);
  });
});
