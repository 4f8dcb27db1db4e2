// SMS through each provider's fake (test/support/fake-*.ts) over real HTTP: the worker hands the
// message over, the fake posts delivery reports to Herald's callback paths, signed as the provider
// signs them. Reports that are forged change nothing; duplicates and late ones change nothing;
// refusals before hand-off are rejected and the charge returned; 5xx, and a call unanswered at the
// batch's deadline, are retried and charged once; a claim that vanished mid-send (its worker gone,
// the lease expired) is looked up before it is sent again (more in sms-reconcile.test.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createListeningTestApp, type TestApp } from '../support/app.ts';
import { adminRequest, bearer, createSmsTeam, type TestTeam } from '../support/factory.ts';
import type { FakeTwilio } from '../support/fake-twilio.ts';
import {
  deliverDueSms as deliverDue,
  sendTestSms,
  smsRunner as runner,
  startTermiiTestApp,
  startTwilioTestApp,
} from '../support/sms-delivery.ts';
import type { FakeTermii } from '../support/fake-termii.ts';
import { AT_TEST_API_KEY, AT_TEST_USERNAME, FakeAfricasTalking } from '../support/fake-africastalking.ts';

const US = '+14155552671';
const NG = '+2348031234567';
const KE = '+254712345678';

async function smsOf(t: TestApp, team: TestTeam, id: string) {
  return (await t.app.inject({ url: `/api/v1/sms/${id}`, headers: bearer(team.key) })).json();
}

async function balanceOf(t: TestApp, teamId: number): Promise<bigint> {
  const row = await t.deps.db.selectFrom('wallets').select('balance').where('team_id', '=', teamId).executeTakeFirst();
  return BigInt(row?.balance ?? 0);
}

describe('twilio', () => {
  let twilio: FakeTwilio;
  let t: TestApp;
  let callback: string;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ t, twilio, statusCallback: callback, close } = await startTwilioTestApp());
  }, 60_000);
  afterAll(() => close());

  it('hands the message over with its status callback, then follows signed reports forward only', async () => {
    const team = await createSmsTeam(t.app);
    const sms = await sendTestSms(t, team, US);
    await deliverDue(t);
    const handed = twilio.messages.at(-1)!;
    expect(handed).toMatchObject({ to: US, from: 'Herald', body: 'Your code is 123456', statusCallback: callback });
    expect((await smsOf(t, team, sms.id)).status).toBe('sent');

    expect((await twilio.postStatus(callback, { sid: handed.sid, status: 'delivered' })).status).toBe(200);
    expect((await smsOf(t, team, sms.id)).status).toBe('delivered');
    // A duplicate, then a late `sent`: nothing changes.
    expect((await twilio.postStatus(callback, { sid: handed.sid, status: 'delivered' })).status).toBe(200);
    expect((await twilio.postStatus(callback, { sid: handed.sid, status: 'sent' })).status).toBe(200);
    const read = await smsOf(t, team, sms.id);
    expect(read.status).toBe('delivered');
    expect(read.reason).toBeNull();
  });

  it('answers a forged report 403 and changes nothing', async () => {
    const team = await createSmsTeam(t.app);
    const sms = await sendTestSms(t, team, US);
    await deliverDue(t);
    const handed = twilio.messages.at(-1)!;
    const forged = await twilio.postStatus(callback, { sid: handed.sid, status: 'delivered', forge: true });
    expect(forged.status).toBe(403);
    expect((await smsOf(t, team, sms.id)).status).toBe('sent');
  });

  it('keeps the charge of a message that failed after hand-off, with a plain reason', async () => {
    const team = await createSmsTeam(t.app);
    const sms = await sendTestSms(t, team, US);
    await deliverDue(t);
    const before = await balanceOf(t, team.id);
    await twilio.postStatus(callback, { sid: twilio.messages.at(-1)!.sid, status: 'undelivered', errorCode: 30003 });
    const read = await smsOf(t, team, sms.id);
    expect(read.status).toBe('failed');
    expect(read.reason.code).toBe('unreachable');
    expect(read.reason.message).not.toMatch(/30003/);
    expect(await balanceOf(t, team.id)).toBe(before);
  });

  it('rejects a message the provider refuses before hand-off and returns the charge', async () => {
    const team = await createSmsTeam(t.app);
    const funded = await balanceOf(t, team.id);
    const sms = await sendTestSms(t, team, US);
    expect(await balanceOf(t, team.id)).toBeLessThan(funded);
    twilio.enqueue({ refuse: 21211 });
    await deliverDue(t);
    const read = await smsOf(t, team, sms.id);
    expect(read.status).toBe('rejected');
    expect(read.reason.code).toBe('invalid_number');
    expect(await balanceOf(t, team.id)).toBe(funded);
    const ledger = await adminRequest(t.app, 'GET', `/teams/${team.id}/wallet/transactions`).catch(() => null);
    if (ledger !== null) expect(JSON.stringify(ledger)).toContain('SMS_RELEASE');
  });

  it('retries a 5xx with backoff, sends once it is taken, and charges once', async () => {
    const team = await createSmsTeam(t.app);
    // A number of its own, so the count below is this message's hand-offs alone.
    const to = '+14155550199';
    const sms = await sendTestSms(t, team, to);
    const charged = await balanceOf(t, team.id);
    const handedBefore = twilio.messages.length;
    twilio.enqueue({ status: 503 });
    await deliverDue(t);
    expect((await smsOf(t, team, sms.id)).status).toBe('queued');
    t.clock.advance(15 * 60_000);
    await deliverDue(t);
    expect((await smsOf(t, team, sms.id)).status).toBe('sent');
    const handed = twilio.messages.slice(handedBefore);
    expect(
      handed.filter((m) => m.to === to),
      JSON.stringify(handed),
    ).toHaveLength(1);
    expect(await balanceOf(t, team.id)).toBe(charged);
  });

  it("leaves a message the provider has not answered by the batch's deadline for a retry, charged once", async () => {
    const team = await createSmsTeam(t.app);
    const sms = await sendTestSms(t, team, US);
    const charged = await balanceOf(t, team.id);
    twilio.enqueue('hang');
    const started = performance.now();
    await deliverDue(t, { callsDeadlineMs: 200 });
    // Well before the adapter's own 15-second timeout.
    expect(performance.now() - started).toBeLessThan(10_000);
    expect((await smsOf(t, team, sms.id)).status).toBe('queued');
    const queued = await t.deps.db
      .selectFrom('sms_deliveries')
      .select(['last_error', 'handed_off', 'lease_until', 'next_attempt_at'])
      .where('sms_id', '=', sms.id)
      .executeTakeFirstOrThrow();
    // The request had gone out: the next claim looks it up before sending it again.
    expect(queued.last_error).toBe("Twilio: no answer within 0.2 s of the batch's start");
    expect(queued.handed_off).toBe(true);
    expect(queued.lease_until).toBeNull();
    expect(queued.next_attempt_at.getTime()).toBeGreaterThan(t.clock.now().getTime());
    t.clock.advance(15 * 60_000);
    await deliverDue(t);
    expect((await smsOf(t, team, sms.id)).status).toBe('sent');
    expect(await balanceOf(t, team.id)).toBe(charged);
  });

  it('looks up a message whose worker vanished mid-send, and sends it once more only if Twilio has none', async () => {
    const team = await createSmsTeam(t.app);
    const sms = await sendTestSms(t, team, US);
    const charged = await balanceOf(t, team.id);
    const requestsBefore = twilio.requests.length;
    const sendsBefore = twilio.sendRequests;
    twilio.enqueue('hang');
    // The first worker takes the message and hangs on the provider (as a killed one would never answer).
    const first = runner(t);
    await first.start();
    first.notify('sms-delivery');
    await twilio.waitForRequests(requestsBefore + 1);
    // Its lease runs out; a second worker finds the message due again.
    t.clock.advance(3 * 60_000);
    await deliverDue(t);
    // The hanging request took nothing: the list has no such message, so it goes once more.
    const read = await smsOf(t, team, sms.id);
    expect(read.status).toBe('sent');
    expect(twilio.requests.filter((r) => r.method === 'GET').length).toBeGreaterThanOrEqual(1);
    expect(twilio.sendRequests).toBe(sendsBefore + 2);
    expect(await balanceOf(t, team.id)).toBe(charged);
    await first.stop({ timeoutMs: 100 });
  });

  it('gives the operator the callback URLs', async () => {
    const urls = await adminRequest(t.app, 'GET', '/sms/callback-urls');
    expect(urls.twilio).toBe(callback);
    expect(urls.africastalking).toMatch(/\/hooks\/sms\/africastalking\/[\w-]+$/);
    expect(urls.termii).toBe(`${t.deps.config.publicUrl}/hooks/sms/termii`);
  });
});

describe('termii', () => {
  let termii: FakeTermii;
  let t: TestApp;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ t, termii, close } = await startTermiiTestApp());
  }, 60_000);
  afterAll(() => close());

  it('sends, follows a signed report, refuses a forged one; other providers’ paths are not live', async () => {
    const team = await createSmsTeam(t.app);
    const sms = await sendTestSms(t, team, NG);
    await deliverDue(t);
    const handed = termii.messages.at(-1)!;
    expect(handed.to).toBe(NG.slice(1));
    const url = `${t.deps.config.publicUrl}/hooks/sms/termii`;
    expect(
      (await termii.postReport(url, { messageId: handed.messageId, status: 'DELIVERED', forge: true })).status,
    ).toBe(403);
    expect((await smsOf(t, team, sms.id)).status).toBe('sent');
    expect((await termii.postReport(url, { messageId: handed.messageId, status: 'DELIVERED' })).status).toBe(200);
    expect((await smsOf(t, team, sms.id)).status).toBe('delivered');
    const twilioPath = await t.app.inject({ method: 'POST', url: '/hooks/sms/twilio', payload: 'a=b' });
    expect(twilioPath.statusCode).toBe(404);
  });
});

describe("africa's talking", () => {
  let at: FakeAfricasTalking;
  let t: TestApp;
  beforeAll(async () => {
    at = await FakeAfricasTalking.start();
    t = await createListeningTestApp({
      smsProvider: 'africastalking',
      africasTalking: { username: AT_TEST_USERNAME, apiKey: AT_TEST_API_KEY, apiUrl: at.url },
    });
  }, 60_000);
  afterAll(async () => {
    await t.close();
    await at.close();
  });

  it('sends, takes reports only on the tokened path, and answers a wrong token 404', async () => {
    const team = await createSmsTeam(t.app);
    const sms = await sendTestSms(t, team, KE);
    await deliverDue(t);
    const handed = at.messages.at(-1)!;
    const { africastalking } = await adminRequest(t.app, 'GET', '/sms/callback-urls');
    const wrong = await at.postReport(`${t.deps.config.publicUrl}/hooks/sms/africastalking/not-the-token`, {
      id: handed.messageId,
      status: 'Success',
    });
    expect(wrong.status).toBe(404);
    expect((await smsOf(t, team, sms.id)).status).toBe('sent');
    expect((await at.postReport(africastalking, { id: handed.messageId, status: 'Success' })).status).toBe(200);
    expect((await smsOf(t, team, sms.id)).status).toBe('delivered');
  });
});
