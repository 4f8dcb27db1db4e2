// One-time codes by email, through HTTP on the real database: the code goes out in the same
// transaction as its verification (read back from the loopback SMTP sink), every field rule at its
// edge, key domains and suppressions, the shared send-facts read, and team templates.
import { simpleParser } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../domains/support.ts';
import type { RelayDelivery } from '../emails/delivery-support.ts';
import type { SendingTeam } from '../emails/support.ts';
import { readSendFacts } from '../../src/verify/send-facts-queries.ts';
import { codeInEmail, countRows, fresh, recipientsMade, startEmailCodeBed, verify } from './support.ts';

let r: RelayDelivery, team: SendingTeam;
beforeAll(async () => void ({ r, team } = await startEmailCodeBed()), 180_000);
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
      name: `Code ${recipientsMade}`,
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
      name: `No code ${recipientsMade}`,
      subject: 'Hello',
      html: '<p>Hi</p>',
    });
    const refused = await v().send({ to: fresh(), templateId: codeless.json().id });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error.message).toContain('{{code}}');
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
