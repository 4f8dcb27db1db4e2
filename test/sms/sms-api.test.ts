// POST/GET /v1/sms through HTTP on the `log` provider (nothing leaves the machine): the contract's
// field rules at their edges, the charge taken with the message and nothing stored on 402, 403 for a
// team without SMS or a refused destination, risk refusals, idempotency, tenancy and access, and the
// worker moving a message to sent then delivered with its outbox copy and webhook events.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.ts';
import { adminRequest, bearer, createSmsTeam } from '../support/factory.ts';
import { deliverDueSms } from '../support/sms-delivery.ts';

let t: TestApp;
let refusing: TestApp;

// Valid under libphonenumber-js's max metadata (checked in test/sms/phone.test.ts).
const US = '+14155552671';
const GB_MOBILE = '+447400123456';
const GB_PREMIUM = '+449098765432';

beforeAll(async () => {
  t = await createTestApp();
  refusing = await createTestApp({ config: { smsCountries: new Set(['GB']) } });
}, 60_000);
afterAll(async () => {
  await refusing.close();
  await t.close();
});

const smsTeam = (app = t.app, options: { balance?: number; smsEnabled?: boolean } = {}) => createSmsTeam(app, options);

function send(key: string, payload: Record<string, unknown>, headers: Record<string, string> = {}, app = t.app) {
  return app.inject({ method: 'POST', url: '/api/v1/sms', headers: { ...bearer(key), ...headers }, payload });
}

async function balanceOf(teamId: number): Promise<bigint> {
  const row = await t.deps.db.selectFrom('wallets').select('balance').where('team_id', '=', teamId).executeTakeFirst();
  return BigInt(row?.balance ?? 0);
}

async function smsCount(teamId: number): Promise<number> {
  const rows = await t.deps.db.selectFrom('sms_messages').select('id').where('team_id', '=', teamId).execute();
  return rows.length;
}

describe('POST /v1/sms', () => {
  it('queues the message, masks the number, counts segments and charges the wallet in the same write', async () => {
    const team = await smsTeam();
    const before = await balanceOf(team.id);
    const response = await send(team.key, { to: US, text: 'Your code is 123456' });
    expect(response.statusCode, response.body).toBe(201);
    const body = response.json();
    expect(body).toMatchObject({ to: '+*******2671', status: 'queued', segments: 1, reason: null });
    expect(body.charge.currency).toBe('USD');
    expect(body.charge.amount).toMatch(/^\d+\.\d{2}$/);
    const charged = BigInt(body.charge.amount.replace('.', ''));
    expect(charged > 0n).toBe(true);
    expect(await balanceOf(team.id)).toBe(before - charged);
    expect(response.body).not.toContain('4155552671');
  });

  it('bills 161 GSM-7 characters as two segments and 71 Cyrillic as two', async () => {
    const team = await smsTeam();
    const one = (await send(team.key, { to: US, text: 'a'.repeat(160) })).json();
    const two = (await send(team.key, { to: US, text: 'a'.repeat(161) })).json();
    const cyrillic = (await send(team.key, { to: US, text: 'ж'.repeat(71) })).json();
    expect([one.segments, two.segments, cyrillic.segments]).toEqual([1, 2, 2]);
    expect(Number(two.charge.amount)).toBeCloseTo(Number(one.charge.amount) * 2, 5);
  });

  it('refuses numbers that are not strict E.164 and text outside 1 to 1,600 characters, storing nothing', async () => {
    const team = await smsTeam();
    const before = await balanceOf(team.id);
    for (const to of [
      '+1 415 555 2671',
      '+1-415-555-2671',
      '04155552671',
      '14155552671',
      '+0123456789',
      '+1234567890123456',
      '+15555550100x',
    ]) {
      const response = await send(team.key, { to, text: 'hi' });
      expect(response.statusCode, `${to}: ${response.body}`).toBe(400);
      expect(response.json().error.message).toContain('to');
    }
    expect((await send(team.key, { to: US, text: '' })).statusCode).toBe(400);
    const tooLong = await send(team.key, { to: US, text: 'a'.repeat(1601) });
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json().error.message).toContain('text');
    expect((await send(team.key, { to: US, text: 'a'.repeat(1600) })).statusCode).toBe(201);
    expect((await send(team.key, { to: US, text: 'hi', clientIp: 'not-an-ip' })).statusCode).toBe(400);
    expect(await smsCount(team.id)).toBe(1);
    expect(await balanceOf(team.id)).toBeLessThan(before);
  });

  it('takes only approved or shared sender IDs of at most 11 characters', async () => {
    const team = await smsTeam();
    const twelve = await send(team.key, { to: US, text: 'hi', senderId: 'ABCDEFGHIJKL' });
    expect(twelve.statusCode).toBe(400);
    expect(twelve.json().error.message).toContain('senderId');
    const unapproved = await send(team.key, { to: US, text: 'hi', senderId: 'Acme' });
    expect(unapproved.statusCode).toBe(400);
    expect(unapproved.json().error.message).toContain('senderId');
    await adminRequest(t.app, 'POST', `/teams/${team.id}/sender-ids`, { senderId: 'Acme', country: 'US' });
    expect((await send(team.key, { to: US, text: 'hi', senderId: 'Acme' })).statusCode).toBe(201);
    expect((await send(team.key, { to: US, text: 'hi', senderId: 'Herald' })).statusCode).toBe(201);
    const rows = await t.deps.db
      .selectFrom('sms_messages')
      .select('sender_id')
      .where('team_id', '=', team.id)
      .execute();
    expect(rows.map((r) => r.sender_id).sort()).toEqual(['Acme', 'Herald']);
    // Without senderId: the team's approved one for the destination country.
    const { id } = (await send(team.key, { to: US, text: 'hi' })).json();
    const last = await t.deps.db
      .selectFrom('sms_messages')
      .select('sender_id')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(last.sender_id).toBe('Acme');
  });

  it('answers 403 when SMS is off for the team or the deployment refuses the country', async () => {
    const off = await smsTeam(t.app, { smsEnabled: false });
    const response = await send(off.key, { to: US, text: 'hi' });
    expect(response.statusCode).toBe(403);
    expect(response.json().error.code).toBe('FORBIDDEN');
    const team = await smsTeam(refusing.app);
    expect((await send(team.key, { to: US, text: 'hi' }, {}, refusing.app)).statusCode).toBe(403);
    expect((await send(team.key, { to: GB_MOBILE, text: 'hi' }, {}, refusing.app)).statusCode).toBe(201);
  });

  it('answers 402 with nothing stored when the wallet cannot pay', async () => {
    const team = await smsTeam(t.app, { balance: 0 });
    const response = await send(team.key, { to: US, text: 'hi' });
    expect(response.statusCode).toBe(402);
    expect(response.json().error.code).toBe('INSUFFICIENT_BALANCE');
    expect(await smsCount(team.id)).toBe(0);
  });

  it('charges exactly the messages the wallet covers when they race', async () => {
    const probe = await smsTeam();
    const price = BigInt((await send(probe.key, { to: US, text: 'hi' })).json().charge.amount.replace('.', ''));
    const team = await smsTeam(t.app, { balance: Number(price * 5n) });
    const answers = await Promise.all(Array.from({ length: 10 }, () => send(team.key, { to: US, text: 'hi' })));
    const statuses = answers.map((a) => a.statusCode).sort();
    expect(statuses).toEqual([201, 201, 201, 201, 201, 402, 402, 402, 402, 402]);
    expect(await balanceOf(team.id)).toBe(0n);
    expect(await smsCount(team.id)).toBe(5);
  });

  it('refuses a premium-rate number to a new country with 422 RISK_REFUSED and the reasons', async () => {
    const team = await smsTeam();
    const response = await send(team.key, { to: GB_PREMIUM, text: 'hi' });
    expect(response.statusCode, response.body).toBe(422);
    const body = response.json();
    expect(body.error.code).toBe('RISK_REFUSED');
    expect(body.risk.level).toBe('HIGH');
    expect(body.risk.reasons.map((r: { code: string }) => r.code).sort()).toEqual(['NEW_COUNTRY', 'NON_MOBILE_NUMBER']);
    expect(await smsCount(team.id)).toBe(0);
  });

  it('replays an Idempotency-Key with the same body and refuses it with another', async () => {
    const team = await smsTeam();
    const headers = { 'idempotency-key': 'sms-key-1' };
    const first = await send(team.key, { to: US, text: 'hi' }, headers);
    const again = await send(team.key, { to: US, text: 'hi' }, headers);
    expect(again.statusCode).toBe(201);
    expect(again.json().id).toBe(first.json().id);
    const other = await send(team.key, { to: US, text: 'other' }, headers);
    expect(other.statusCode).toBe(409);
    expect(other.json().error.code).toBe('NOT_UNIQUE');
    expect(await smsCount(team.id)).toBe(1);
  });
});

describe('GET /v1/sms', () => {
  it('lists newest first with a cursor and a status filter; another team sees nothing and reads 404', async () => {
    const team = await smsTeam();
    const other = await smsTeam();
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      t.clock.advance(1000);
      ids.push((await send(team.key, { to: US, text: `m${i}` })).json().id);
    }
    const page1 = await t.app.inject({ url: '/api/v1/sms?limit=2', headers: bearer(team.key) });
    expect(page1.json().data.map((m: { id: string }) => m.id)).toEqual([ids[2], ids[1]]);
    const cursor = page1.json().nextCursor as string;
    const page2 = await t.app.inject({ url: `/api/v1/sms?limit=2&cursor=${cursor}`, headers: bearer(team.key) });
    expect(page2.json()).toEqual({ data: [expect.objectContaining({ id: ids[0] })], nextCursor: null });
    const foreignCursor = await t.app.inject({ url: `/api/v1/sms?cursor=${cursor}`, headers: bearer(other.key) });
    expect(foreignCursor.statusCode).toBe(400);
    const delivered = await t.app.inject({ url: '/api/v1/sms?status=delivered', headers: bearer(team.key) });
    expect(delivered.json().data).toEqual([]);
    for (const query of ['limit=0', 'limit=101', 'status=lost'])
      expect((await t.app.inject({ url: `/api/v1/sms?${query}`, headers: bearer(team.key) })).statusCode).toBe(400);
    expect((await t.app.inject({ url: `/api/v1/sms/${ids[0]}`, headers: bearer(team.key) })).statusCode).toBe(200);
    expect((await t.app.inject({ url: `/api/v1/sms/${ids[0]}`, headers: bearer(other.key) })).statusCode).toBe(404);
  });

  it('lets a sending key send but not read (FULL), and refuses a read only key to send', async () => {
    const team = await smsTeam();
    const sending = await team.makeKey('sending');
    const readonly = await team.makeKey('readonly');
    const sent = await send(sending.key, { to: US, text: 'hi' });
    expect(sent.statusCode).toBe(201);
    const read = await t.app.inject({ url: `/api/v1/sms/${sent.json().id}`, headers: bearer(sending.key) });
    expect(read.statusCode).toBe(403);
    expect((await t.app.inject({ url: '/api/v1/sms', headers: bearer(sending.key) })).statusCode).toBe(403);
    expect((await send(readonly.key, { to: US, text: 'hi' })).statusCode).toBe(403);
    expect((await t.app.inject({ url: '/api/v1/sms' })).statusCode).toBe(401);
  });
});

describe('the log provider', () => {
  it('moves a message to sent then delivered, keeps it in the outbox, and records sms.sent and sms.delivered', async () => {
    const team = await smsTeam();
    const sent = (await send(team.key, { to: US, text: 'Your code is 424242' })).json();
    await deliverDueSms(t);
    const read = await t.app.inject({ url: `/api/v1/sms/${sent.id}`, headers: bearer(team.key) });
    expect(read.json().status).toBe('delivered');
    const outbox: { id: string }[] = await adminRequest(
      t.app,
      'GET',
      `/sms/outbox?to=${encodeURIComponent(US)}&limit=1000`,
    );
    expect(outbox.find((kept) => kept.id === sent.id)).toEqual({
      id: sent.id,
      to: US,
      from: 'Herald',
      text: 'Your code is 424242',
      createdAt: expect.any(String),
    });
    expect(
      (await t.app.inject({ url: '/admin/v1/sms/outbox?to=4155552671', headers: { authorization: 'Bearer x' } }))
        .statusCode,
    ).toBe(401);
  });
});
