// One-time codes by email, through HTTP on the real database: the code goes out in the same
// transaction as its verification (read back from the loopback SMTP sink), every field rule at its
// edge, each check outcome in order, expiry by the test clock, lockout and 100 parallel guesses,
// the recipient limit, each email risk signal and a refusal that leaves no code and no email,
// tenancy and access.
import { simpleParser } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../domains/support.ts';
import { startRelayDelivery, type RelayDelivery } from '../emails/delivery-support.ts';
import type { SendingTeam } from '../emails/support.ts';
import { readSendFacts } from '../../src/verify/send-facts-queries.ts';
import { codeInEmail, countRows, verify, wrongCode } from './support.ts';

let r: RelayDelivery;
let team: SendingTeam;
let n = 0;
/** A fresh recipient per send, so that limits and velocity signals stay out of the way. */
const fresh = (domain = 'example.com') => `user${++n}.${Date.now()}@${domain}`;

beforeAll(async () => {
  r = await startRelayDelivery();
  team = r.team;
}, 180_000);
afterAll(async () => r.close());

const v = (key = team.key) => verify(r.h.app, key);

describe('POST /v1/verify/send (email)', () => {
  it('queues the code email with the verification and the recipient receives the code', async () => {
    const to = fresh();
    const response = await v().send({ to });
    expect(response.statusCode, response.body).toBe(201);
    const body = response.json();
    expect(body).toMatchObject({
      to,
      channel: 'email',
      status: 'pending',
      attemptsRemaining: 5,
      verified: false,
      providerMessageId: null,
      deliveryStatus: null,
      deliveryReason: null,
      risk: { score: 0, level: 'LOW', reasons: [] },
    });
    expect(body.reason).toBeUndefined();
    expect(Date.parse(body.expiresAt) - r.h.t.clock.now().getTime()).toBe(600_000);
    // Same transaction: the email exists and names the verification's recipient.
    const email = await r.h.t.deps.db
      .selectFrom('emails')
      .select(['id', 'subject', 'text', 'html'])
      .where('id', '=', body.emailId)
      .executeTakeFirstOrThrow();
    const code = await codeInEmail(r.h.t, body.emailId);
    expect(code).toMatch(/^\d{6}$/);
    expect(email.subject).toBe(`${teamName()} verification code: ${code}`);
    expect(email.html).toContain(code);
    expect(email.html).toContain('lang="en"');
    expect(response.body).not.toContain(code);
    // At rest only the keyed hash.
    const row = await r.h.t.deps.db
      .selectFrom('verifications')
      .selectAll()
      .where('id', '=', body.id)
      .executeTakeFirstOrThrow();
    expect(row.code_hash?.length).toBe(32);
    expect(JSON.stringify(row)).not.toContain(code);

    // Delivered over SMTP: the code the person reads.
    await expect.poll(() => r.messagesOf(body.emailId).length, { timeout: 10_000, interval: 25 }).toBe(1);
    const mail = await simpleParser(r.messagesOf(body.emailId)[0]!.raw);
    expect(mail.subject).toBe(`${teamName()} verification code: ${code}`);
    expect(mail.text).toContain(code);
    expect(mail.from?.text).toBe(`no-reply@${team.domain.name}`);

    const checked = await v().check({ id: body.id, code });
    expect(checked.statusCode, checked.body).toBe(200);
    expect(checked.json()).toMatchObject({ status: 'verified', verified: true, attemptsRemaining: 5 });
    expect(checked.json().reason).toBeUndefined();
  });

  it('holds every field rule at its edge and one past it, storing nothing on 400', async () => {
    const before = await countRows(r.h.t, 'verifications', team.id);
    const bad: [Record<string, unknown>, string][] = [
      [{ to: 'a@' }, 'to'],
      [{ to: `${'a'.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(63)}.${'e'.repeat(62)}.com` }, 'to'],
      [{ to: 'not an address' }, 'to'],
      [{ to: fresh(), channel: 'fax' }, 'channel'],
      [{ to: fresh(), codeLength: 3 }, 'codeLength'],
      [{ to: fresh(), codeLength: 9 }, 'codeLength'],
      [{ to: fresh(), codeLength: 6.5 }, 'codeLength'],
      [{ to: fresh(), expiresIn: 59 }, 'expiresIn'],
      [{ to: fresh(), expiresIn: 1801 }, 'expiresIn'],
      [{ to: fresh(), appName: 'a'.repeat(61) }, 'appName'],
      [{ to: fresh(), subject: 's'.repeat(999) }, 'subject'],
      [{ to: fresh(), senderId: 'Acme' }, 'senderId'],
      [{ to: fresh(), clientIp: '999.1.1.1' }, 'clientIp'],
      [{ to: fresh(), from: 'nobody' }, 'from'],
      [{ to: fresh(), from: 'a@not-verified.example' }, 'from'],
      [{ to: fresh(), templateId: 'tmpl_missing' }, 'templateId'],
      [{}, 'to'],
    ];
    for (const [payload, field] of bad) {
      const response = await v().send(payload);
      expect(response.statusCode, `${JSON.stringify(payload).slice(0, 80)}: ${response.body}`).toBe(400);
      expect(response.json().error.message).toContain(field);
    }
    expect(await countRows(r.h.t, 'verifications', team.id)).toBe(before);

    const good: Record<string, unknown>[] = [
      { to: 'a@b.co'.slice(0, 6), codeLength: 4, expiresIn: 60 },
      { to: fresh(), codeLength: 8, expiresIn: 1800 },
      { to: fresh(), appName: 'a'.repeat(60), subject: 's'.repeat(998) },
      { to: fresh(), clientIp: '2001:db8::1', from: `Acme <hello@${team.domain.name}>` },
    ];
    const lengths = [];
    for (const payload of good) {
      const response = await v().send(payload);
      expect(response.statusCode, `${JSON.stringify(payload).slice(0, 80)}: ${response.body}`).toBe(201);
      lengths.push((await codeInEmail(r.h.t, response.json().emailId)).length);
    }
    expect(lengths).toEqual([4, 8, 6, 6]);
    // `to` at exactly 3 characters reaches the address check (it is not an address): 400 names to, not length.
    const three = await v().send({ to: 'a@b' });
    expect(three.statusCode).toBe(400);
  });

  it('takes the longest valid address; 320 characters pass the length rule, 321 do not', async () => {
    // An address is at most 64 + 1 + 253 = 318 characters; the contract's 320 bounds the field itself.
    const local = 'a'.repeat(64);
    const domain = `${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(63)}.${'e'.repeat(57)}.com`;
    const address = `${local}@${domain}`;
    expect(address.length).toBe(318);
    expect((await v().send({ to: address })).statusCode).toBe(201);
    const at320 = await v().send({ to: `${local}@xx${domain}` });
    expect(at320.statusCode).toBe(400);
    expect(at320.json().error.message).toContain('must be an email address');
    const at321 = await v().send({ to: `${local}@xxx${domain}` });
    expect(at321.statusCode).toBe(400);
    expect(at321.json().error.message).toContain('to');
    expect(at321.json().error.message).not.toContain('must be an email address');
  });

  it('sends from a domain-limited key only on its own domain (403 otherwise), and not to a suppressed address', async () => {
    const other = await team.addDomain();
    const pinned = await team.makeKey('sending', { domainId: other.id });
    const refused = await v(pinned.key).send({ to: fresh() });
    expect(refused.statusCode, refused.body).toBe(403);
    expect(refused.json().error.code).toBe('FORBIDDEN');
    expect((await v(pinned.key).send({ to: fresh(), from: `hi@${other.name}` })).statusCode).toBe(201);

    const suppressed = fresh();
    await r.h.t.deps.db
      .insertInto('suppressions')
      .values({ team_id: team.id, email: suppressed, reason: 'bounce', email_id: null, created_at: new Date() })
      .execute();
    const response = await v().send({ to: suppressed });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.message).toContain('suppressed');
  });

  it('answers each send of one shared facts read with its own team, suppression and counts, in order', async () => {
    const suppressed = fresh();
    await r.h.t.deps.db
      .insertInto('suppressions')
      .values({ team_id: team.id, email: suppressed, reason: 'bounce', email_id: null, created_at: new Date() })
      .execute();
    const repeated = fresh();
    expect((await v().send({ to: repeated })).statusCode).toBe(201);
    const now = r.h.t.clock.now();
    const risk = (to: string) => ({
      to,
      clientIpHash: null,
      toPrefix: null,
      country: null,
      since: new Date(now.getTime() - 600_000),
      conversionSince: new Date(now.getTime() - 86_400_000),
      conversionUntil: now,
      conversionSample: 50,
      now,
      cap: 10,
    });
    const context = (to: string) => ({ fromDomain: null, to, keyDomainId: null });
    const facts = await readSendFacts(r.h.t.deps.db, [
      { teamId: team.id, context: context(suppressed), risk: risk(suppressed) },
      { teamId: 2_000_000_000, context: context(repeated), risk: risk(repeated) },
      { teamId: team.id, context: context(repeated), risk: risk(repeated) },
    ]);
    expect(facts[1]).toBeUndefined();
    expect(facts.map((f) => f?.context.suppressed)).toEqual([true, undefined, false]);
    expect(facts.map((f) => f?.counts.toRecipient)).toEqual([0, undefined, 1]);
    expect(facts[0]!.context.teamName).toBe(teamName());
  });

  it('answers 400 for a team with no verified domain', async () => {
    const bare = await (await import('../support/factory.ts')).createTeam(r.h.app);
    const response = await v(bare.key).send({ to: fresh() });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.message).toContain('from');
  });

  it('sends with a team template filled with code, appName and expiresMinutes, and refuses one without {{code}}', async () => {
    const template = await call(r.h.app, team.key, 'POST', '/v1/templates', {
      name: `Code ${n}`,
      subject: '{{appName}}: {{code}}',
      html: '<p>Use {{code}} within {{expiresMinutes}} minutes</p>',
    });
    expect(template.statusCode, template.body).toBe(200);
    const response = await v().send({ to: fresh(), templateId: template.json().id, appName: 'Acme', expiresIn: 300 });
    expect(response.statusCode, response.body).toBe(201);
    const email = await r.h.t.deps.db
      .selectFrom('emails')
      .select(['subject', 'html'])
      .where('id', '=', response.json().emailId)
      .executeTakeFirstOrThrow();
    const code = /^Acme: (\d{6})$/.exec(email.subject ?? '')?.[1];
    expect(code).toBeDefined();
    expect(email.html).toBe(`<p>Use ${code} within 5 minutes</p>`);
    expect((await v().check({ id: response.json().id, code })).json().status).toBe('verified');

    const codeless = await call(r.h.app, team.key, 'POST', '/v1/templates', {
      name: `No code ${n}`,
      subject: 'Hello',
      html: '<p>Hi</p>',
    });
    const refused = await v().send({ to: fresh(), templateId: codeless.json().id });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error.message).toContain('{{code}}');
  });
});

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

let storedTeamName = '';
const teamName = () => storedTeamName;
beforeAll(async () => {
  const row = await r.h.t.deps.db
    .selectFrom('teams')
    .select('name')
    .where('id', '=', team.id)
    .executeTakeFirstOrThrow();
  storedTeamName = row.name;
});
