// Checking email codes through HTTP: each outcome in order, lockout and 100 parallel guesses, expiry
// by the test clock, parallel checks of different codes, 404 across teams, and the access rule.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RelayDelivery } from '../emails/delivery-support.ts';
import type { SendingTeam } from '../emails/support.ts';
import { codeInEmail, fresh, startEmailCodeBed, verify, wrongCode } from './support.ts';

let r: RelayDelivery, team: SendingTeam;
beforeAll(async () => void ({ r, team } = await startEmailCodeBed()), 180_000);
afterAll(async () => r.close());

const v = (key = team.key) => verify(r.h.app, key);

describe('POST /v1/verify/check', () => {
  async function sent(payload: Record<string, unknown> = {}) {
    const response = await v().send({ to: fresh(), ...payload });
    expect(response.statusCode, response.body).toBe(201);
    const { id, emailId } = response.json();
    return { id: id as string, code: await codeInEmail(r.h.t, emailId) };
  }

  it('counts only wrong guesses, locks out after five and then refuses even the right code', async () => {
    const { id, code } = await sent();
    const wrong = wrongCode(code);
    for (let left = 4; left >= 0; left--) {
      const response = await v().check({ id, code: wrong });
      expect(response.json()).toMatchObject({
        reason: 'wrong_code',
        attemptsRemaining: left,
        status: left === 0 ? 'failed' : 'pending',
      });
    }
    const after = await v().check({ id, code });
    expect(after.json()).toMatchObject({ reason: 'too_many_attempts', status: 'failed', verified: false });
    expect((await v().get(id)).json()).toMatchObject({ status: 'failed', attemptsRemaining: 0 });
  });

  it('a right code after wrong ones verifies without costing an attempt; a second use is already_used', async () => {
    const { id, code } = await sent();
    await v().check({ id, code: wrongCode(code) });
    expect((await v().check({ id, code })).json()).toMatchObject({ status: 'verified', attemptsRemaining: 4 });
    expect((await v().check({ id, code })).json()).toMatchObject({ reason: 'already_used', attemptsRemaining: 4 });
    expect((await v().check({ id, code: wrongCode(code) })).json()).toMatchObject({
      reason: 'already_used',
      attemptsRemaining: 4,
    });
  });

  it('expires at expiresAt by the clock and stores it; before that the code works', async () => {
    const early = await sent({ expiresIn: 60 });
    r.h.t.clock.advance(59_999);
    expect((await v().check(early)).json().status).toBe('verified');
    const late = await sent({ expiresIn: 60 });
    r.h.t.clock.advance(60_000);
    const response = await v().check(late);
    expect(response.json()).toMatchObject({ reason: 'expired', status: 'expired', attemptsRemaining: 5 });
    expect((await v().get(late.id)).json()).toMatchObject({ status: 'expired', reason: 'expired' });
  });

  it('100 parallel wrong guesses cost exactly the five attempts: five wrong_code, then too_many_attempts', async () => {
    const { id, code } = await sent();
    const answers = await Promise.all(Array.from({ length: 100 }, () => v().check({ id, code: wrongCode(code) })));
    const reasons = answers.map((a) => a.json().reason);
    expect(reasons.filter((reason) => reason === 'wrong_code')).toHaveLength(5);
    expect(reasons.filter((reason) => reason === 'too_many_attempts')).toHaveLength(95);
    expect((await v().get(id)).json()).toMatchObject({ attemptsRemaining: 0, status: 'failed' });
  });

  it('parallel right guesses verify once and spend no attempt', async () => {
    const { id, code } = await sent();
    const answers = await Promise.all(Array.from({ length: 10 }, () => v().check({ id, code })));
    const reasons = answers.map((a) => a.json().reason ?? 'verified');
    expect(answers.map((a) => a.statusCode)).toEqual(Array(10).fill(200));
    expect(reasons.filter((reason) => reason === 'verified')).toHaveLength(1);
    // The others: already_used, or (PostgreSQL, truly parallel) too_many_attempts while the five
    // attempts are held by checks still comparing.
    for (const reason of reasons.filter((reason) => reason !== 'verified'))
      expect(['already_used', 'too_many_attempts']).toContain(reason);
    expect((await v().get(id)).json()).toMatchObject({ status: 'verified', attemptsRemaining: 5 });
  });

  it('parallel checks of different codes (sharing statements) each get their own outcome', async () => {
    const codes: { id: string; code: string }[] = [];
    for (let i = 0; i < 12; i++) codes.push(await sent());
    // Even ones right, odd ones wrong, all at once, then every code once more.
    const guess = (i: number) => (i % 2 === 0 ? codes[i]!.code : wrongCode(codes[i]!.code));
    const first = await Promise.all(codes.map(({ id }, i) => v().check({ id, code: guess(i) })));
    const again = await Promise.all(codes.map(({ id }, i) => v().check({ id, code: guess(i) })));
    first.forEach((response, i) =>
      expect(response.json()).toMatchObject(
        i % 2 === 0
          ? { id: codes[i]!.id, status: 'verified', attemptsRemaining: 5 }
          : { id: codes[i]!.id, status: 'pending', reason: 'wrong_code', attemptsRemaining: 4 },
      ),
    );
    again.forEach((response, i) =>
      expect(response.json()).toMatchObject(
        i % 2 === 0
          ? { id: codes[i]!.id, reason: 'already_used', attemptsRemaining: 5 }
          : { id: codes[i]!.id, reason: 'wrong_code', attemptsRemaining: 3 },
      ),
    );
  });

  it('answers 400 without id or code and 404 for an unknown or another team’s verification', async () => {
    const { id, code } = await sent();
    expect((await v().check({ id })).statusCode).toBe(400);
    expect((await v().check({ code })).statusCode).toBe(400);
    expect((await v().check({ id, code: '' })).statusCode).toBe(400);
    expect((await v().check({ id: 'ver_missing', code })).statusCode).toBe(404);
    const other = await r.h.team();
    expect((await v(other.key).check({ id, code })).statusCode).toBe(404);
    expect((await v(other.key).get(id)).statusCode).toBe(404);
    expect((await v().get(id)).json().status).toBe('pending');
  });

  it('is SEND level on all three endpoints: full and sending keys, not read only, sandbox or live AI', async () => {
    const { id, code } = await sent();
    const sending = await team.makeKey('sending');
    expect((await v(sending.key).get(id)).statusCode).toBe(200);
    expect((await v(sending.key).send({ to: fresh() })).statusCode).toBe(201);
    expect((await v(sending.key).check({ id, code })).statusCode).toBe(200);
    for (const kind of ['readonly', 'sandbox', 'live_ai'] as const) {
      const { key } = await team.makeKey(kind);
      expect((await v(key).send({ to: fresh() })).statusCode, kind).toBe(403);
      expect((await v(key).check({ id, code })).statusCode, kind).toBe(403);
      expect((await v(key).get(id)).statusCode, kind).toBe(403);
    }
    expect((await r.h.app.inject({ method: 'GET', url: `/api/v1/verify/${id}` })).statusCode).toBe(401);
  });
});
