// One-time codes by SMS through HTTP and the fake Twilio (over real HTTP, as production reaches
// Twilio): the code charged to the wallet in the verification's transaction, read from what Twilio
// received, delivery status following the message, 402 with nothing stored, the SMS-only field
// rules, and a premium-rate burst from one client IP refused with its reasons before any charge.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/app.ts';
import { adminRequest, createSmsTeam } from '../support/factory.ts';
import type { FakeTwilio } from '../support/fake-twilio.ts';
import { deliverDueSms, startTwilioTestApp } from '../support/sms-delivery.ts';
import { codeInSms, countRows, verify } from './support.ts';

const US = '+14155552671';
const GB_MOBILE = '+447400123456';
/** GB premium-rate numbers (09…), all sharing one prefix. */
const premium = (i: number) => `+4490987654${String(i).padStart(2, '0')}`;

let twilio: FakeTwilio;
let t: TestApp;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ t, twilio, close } = await startTwilioTestApp());
}, 180_000);
afterAll(() => close());

const smsTeam = (options: { balance?: number; smsEnabled?: boolean } = {}) => createSmsTeam(t.app, options);

async function balanceOf(teamId: number): Promise<bigint> {
  const row = await t.deps.db.selectFrom('wallets').select('balance').where('team_id', '=', teamId).executeTakeFirst();
  return BigInt(row?.balance ?? 0);
}

describe('POST /v1/verify/send (sms)', () => {
  it('charges the wallet with the code, hands the contract text to Twilio, follows delivery, and verifies', async () => {
    const team = await smsTeam();
    const before = await balanceOf(team.id);
    const response = await verify(t.app, team.key).send({ to: US, channel: 'sms', appName: 'Acme' });
    expect(response.statusCode, response.body).toBe(201);
    const body = response.json();
    expect(body).toMatchObject({
      to: US,
      channel: 'sms',
      status: 'pending',
      emailId: null,
      deliveryStatus: 'queued',
      providerMessageId: null,
      deliveryReason: null,
    });
    // An ordinary mobile number scores LOW (a first send to a country is a signal, not a refusal).
    expect(body.risk).toMatchObject({ level: 'LOW', score: 25 });
    expect(body.risk.reasons.map((r: { code: string }) => r.code)).toEqual(['NEW_COUNTRY']);
    const sms = await t.deps.db
      .selectFrom('sms_messages as m')
      .innerJoin('verifications as v', 'v.sms_id', 'm.id')
      .select(['m.charge_minor', 'm.status'])
      .where('v.id', '=', body.id)
      .executeTakeFirstOrThrow();
    expect(sms.charge_minor > 0n).toBe(true);
    expect(await balanceOf(team.id)).toBe(before - BigInt(sms.charge_minor));

    await deliverDueSms(t);
    const code = await codeInSms(t, body.id);
    // Found by its text: the worker also hands over other tests' queued messages (the claim is every team's).
    const text = `Acme: your code is ${code}. It expires in 10 minutes.`;
    const handed = twilio.messages.find((m) => m.body === text)!;
    expect(handed).toMatchObject({ to: US, body: text });
    expect((await verify(t.app, team.key).get(body.id)).json()).toMatchObject({
      deliveryStatus: 'sent',
      providerMessageId: handed.sid,
    });
    const callback = `${t.deps.config.publicUrl}/hooks/sms/twilio`;
    await twilio.postStatus(callback, { sid: handed.sid, status: 'undelivered', errorCode: 30003 });
    const failed = (await verify(t.app, team.key).get(body.id)).json();
    expect(failed.deliveryStatus).toBe('failed');
    expect(failed.deliveryReason).toEqual(expect.any(String));

    const checked = await verify(t.app, team.key).check({ id: body.id, code });
    expect(checked.json()).toMatchObject({ status: 'verified', verified: true, deliveryStatus: 'failed' });
  });

  it('answers 402 when the wallet cannot pay, storing no code, no message and no charge', async () => {
    const team = await smsTeam({ balance: 0 });
    const response = await verify(t.app, team.key).send({ to: US, channel: 'sms', appName: 'Acme' });
    expect(response.statusCode, response.body).toBe(402);
    expect(response.json().error.code).toBe('INSUFFICIENT_BALANCE');
    expect(await countRows(t, 'verifications', team.id)).toBe(0);
    expect(await countRows(t, 'sms_messages', team.id)).toBe(0);
  });

  it('refuses email-only fields, a missing appName, a non-E.164 number and a long sender ID; 403 when SMS is off', async () => {
    const team = await smsTeam();
    const v = verify(t.app, team.key);
    const base = { to: US, channel: 'sms', appName: 'Acme' };
    const bad: [Record<string, unknown>, string][] = [
      [{ ...base, from: 'a@example.com' }, 'from'],
      [{ ...base, subject: 'Hi' }, 'subject'],
      [{ ...base, templateId: 'tmpl_1' }, 'templateId'],
      [{ to: US, channel: 'sms' }, 'appName'],
      [{ ...base, to: '+1 415 555 2671' }, 'to'],
      [{ ...base, to: 'someone@example.com' }, 'to'],
      [{ ...base, senderId: 'ABCDEFGHIJKL' }, 'senderId'],
      [{ ...base, appName: 'a'.repeat(61) }, 'appName'],
    ];
    for (const [payload, field] of bad) {
      const response = await v.send(payload);
      expect(response.statusCode, `${JSON.stringify(payload)}: ${response.body}`).toBe(400);
      expect(response.json().error.message).toContain(field);
    }
    await adminRequest(t.app, 'POST', `/teams/${team.id}/sender-ids`, { senderId: 'ABCDEFGHIJK', country: 'US' });
    expect((await v.send({ ...base, senderId: 'ABCDEFGHIJK', appName: 'a'.repeat(60) })).statusCode).toBe(201);
    expect(await countRows(t, 'verifications', team.id)).toBe(1);

    const off = await smsTeam({ smsEnabled: false });
    const forbidden = await verify(t.app, off.key).send(base);
    expect(forbidden.statusCode).toBe(403);
  });

  it('refuses premium-rate numbers with 422 and reasons, nothing charged; a burst from one IP is refused within 11', async () => {
    const team = await smsTeam();
    const v = verify(t.app, team.key);
    const before = await balanceOf(team.id);
    const first = await v.send({ to: premium(0), channel: 'sms', appName: 'Acme', clientIp: '192.0.2.1' });
    expect(first.statusCode, first.body).toBe(422);
    expect(first.json().risk.reasons.map((r: { code: string }) => r.code)).toEqual([
      'NON_MOBILE_NUMBER',
      'NEW_COUNTRY',
    ]);
    expect(first.json().risk.reasons[0].detail).toContain('premium-rate');
    expect(await balanceOf(team.id)).toBe(before);
    expect(await countRows(t, 'sms_messages', team.id)).toBe(0);
    expect((await v.get(first.json().id)).json()).toMatchObject({ status: 'refused', deliveryStatus: null });

    // Once the team has sent to GB, a premium number alone is MEDIUM; the burst itself is what refuses.
    expect((await v.send({ to: GB_MOBILE, channel: 'sms', appName: 'Acme' })).statusCode).toBe(201);
    let refusedAt = 0;
    let refusal;
    for (let i = 1; i <= 60 && refusedAt === 0; i++) {
      const response = await v.send({ to: premium(i), channel: 'sms', appName: 'Acme', clientIp: '192.0.2.1' });
      expect([201, 422], response.body).toContain(response.statusCode);
      if (response.statusCode === 422) [refusedAt, refusal] = [i, response.json()];
    }
    expect(refusedAt).toBeGreaterThan(0);
    expect(refusedAt).toBeLessThanOrEqual(11);
    expect(refusal.error.code).toBe('RISK_REFUSED');
    expect(refusal.risk.reasons.map((r: { code: string }) => r.code)).toEqual(
      expect.arrayContaining(['NON_MOBILE_NUMBER', 'IP_VELOCITY']),
    );
  });
});
