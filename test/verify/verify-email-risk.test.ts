// The limits and risk of email codes: the recipient and client IP limits (429), each risk signal on
// its own, and a HIGH risk refused with 422, leaving no code and no email.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RelayDelivery } from '../emails/delivery-support.ts';
import type { SendingTeam } from '../emails/support.ts';
import { countRows, fresh, startEmailCodeBed, verify } from './support.ts';

let r: RelayDelivery, team: SendingTeam;
beforeAll(async () => void ({ r, team } = await startEmailCodeBed()), 180_000);
afterAll(async () => r.close());

const v = (key = team.key) => verify(r.h.app, key);

describe('limits and risk (email)', () => {
  it('answers 429 with Retry-After past 5 codes to one recipient in 10 minutes', async () => {
    const to = fresh();
    for (let i = 0; i < 5; i++) expect((await v().send({ to })).statusCode).toBe(201);
    const limited = await v().send({ to });
    expect(limited.statusCode).toBe(429);
    expect(limited.json().error.code).toBe('RATE_LIMITED');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('answers 429 past 50 codes for one client IP in 10 minutes (a burst it scored, but did not refuse)', async () => {
    const burst = await r.h.team();
    const answers = [];
    for (let i = 0; i < 51; i++) answers.push(await v(burst.key).send({ to: fresh(), clientIp: '203.0.113.50' }));
    expect(answers.slice(0, 50).map((a) => a.statusCode)).toEqual(Array(50).fill(201));
    expect(answers[49]!.json().risk.reasons.map((reason: { code: string }) => reason.code)).toContain('IP_VELOCITY');
    expect(answers[50]!.statusCode).toBe(429);
    expect(answers[50]!.json().error.message).toContain('client IP');
    expect(answers[50]!.headers['retry-after']).toBeDefined();
  });

  it('fires each signal on its own, with a detail a person can act on', async () => {
    const t1 = await r.h.team();
    const disposable = await v(t1.key).send({ to: `x@mailinator.com` });
    expect(disposable.json().risk).toMatchObject({ score: 30, level: 'MEDIUM' });
    expect(disposable.json().risk.reasons).toEqual([
      { code: 'DISPOSABLE_EMAIL', detail: expect.stringContaining('mailinator.com') },
    ]);

    const t2 = await r.h.team();
    const to = fresh();
    const scores = [];
    for (let i = 0; i < 4; i++) scores.push((await v(t2.key).send({ to })).json().risk);
    expect(scores.slice(0, 3).every((risk) => risk.score === 0)).toBe(true);
    expect(scores[3].reasons.map((reason: { code: string }) => reason.code)).toEqual(['RECIPIENT_VELOCITY']);

    const t3 = await r.h.team();
    let last;
    for (let i = 0; i < 11; i++) last = (await v(t3.key).send({ to: fresh(), clientIp: '203.0.113.7' })).json();
    expect(last.risk.reasons.map((reason: { code: string }) => reason.code)).toEqual(['IP_VELOCITY']);
    expect(last.risk.reasons[0].detail).toContain('client IP');

    const t4 = await r.h.team();
    for (let i = 0; i < 20; i++) await v(t4.key).send({ to: fresh(), expiresIn: 60 });
    // Codes count once they are ten minutes old (younger ones are mostly still pending).
    r.h.t.clock.advance(9 * 60_000);
    expect((await v(t4.key).send({ to: fresh() })).json().risk.reasons).toEqual([]);
    r.h.t.clock.advance(60_001);
    const poor = (await v(t4.key).send({ to: fresh() })).json();
    expect(poor.risk.reasons.map((reason: { code: string }) => reason.code)).toEqual(['POOR_CONVERSION']);
    expect(poor.risk.reasons[0].detail).toContain('0 of');
  });

  it('refuses HIGH risk with 422, its reasons and id; no code, no email; GET shows the signals', async () => {
    const t5 = await r.h.team();
    const to = 'victim@mailinator.com';
    const ip = '198.51.100.9';
    for (let i = 0; i < 10; i++) await v(t5.key).send({ to: `x${i}@example.com`, clientIp: ip });
    for (let i = 0; i < 3; i++) await v(t5.key).send({ to });
    const emailsBefore = await countRows(r.h.t, 'emails', t5.id);
    const response = await v(t5.key).send({ to, clientIp: ip });
    expect(response.statusCode, response.body).toBe(422);
    const body = response.json();
    expect(body.error.code).toBe('RISK_REFUSED');
    expect(body.risk.level).toBe('HIGH');
    expect(body.risk.reasons.map((reason: { code: string }) => reason.code).sort()).toEqual([
      'DISPOSABLE_EMAIL',
      'IP_VELOCITY',
      'RECIPIENT_VELOCITY',
    ]);
    expect(body.risk.score).toBe(65);
    expect(await countRows(r.h.t, 'emails', t5.id)).toBe(emailsBefore);
    const stored = await v(t5.key).get(body.id);
    expect(stored.json()).toMatchObject({ status: 'refused', reason: 'refused', emailId: null, risk: body.risk });
    const row = await r.h.t.deps.db
      .selectFrom('verifications')
      .select('code_hash')
      .where('id', '=', body.id)
      .executeTakeFirstOrThrow();
    expect(row.code_hash).toBeNull();
    expect((await v(t5.key).check({ id: body.id, code: '123456' })).json()).toMatchObject({
      reason: 'refused',
      status: 'refused',
    });
  });
});
