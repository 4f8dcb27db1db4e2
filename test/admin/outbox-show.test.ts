// GET /admin/v1/outbox/{id} and GET /admin/v1/dns, and how `herald admin outbox` prints: the list as
// a summary, one message as headers and text (the text part made from HTML-only mail), or raw.
// End to end through real processes: test/process/first-email.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminCommands } from '../../src/admin/cli-commands.ts';
import { outboxMessageEml, outboxMessageText, outboxSummary } from '../../src/admin/outbox-print.ts';
import { insertOutboxMessage } from '../../src/emails/outbox-queries.ts';
import { buildSignedMessage } from '../../src/emails/delivery-message.ts';
import { builtinSendingDomain } from '../../src/domains/index.ts';
import type { EmailRow } from '../../src/emails/queries.ts';
import { createTestApp, TEST_ADMIN_TOKEN, type TestApp } from '../support/app.ts';
import { createTeam } from '../support/factory.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const get = (url: string, token = TEST_ADMIN_TOKEN) =>
  t.app.inject({ method: 'GET', url: `/admin/v1${url}`, headers: { authorization: `Bearer ${token}` } });

/**
 * An HTML-only message signed with the built-in domain, stored as the log transport would, for its own
 * team: other tests store mail too (some with clocks in the future), so the list is read by team.
 */
async function storedMessage(teamId: number): Promise<string> {
  const mailDomain = t.deps.config.mailDomain;
  const email = {
    id: `em_test${Date.now()}`,
    team_id: 1,
    from: `Herald <onboarding@${mailDomain}>`,
    to: JSON.stringify(['owner@example.test']),
    cc: null,
    reply_to: null,
    subject: 'Outbox show',
    html: '<h1>Hi</h1><p>See <a href="https://example.test/x">the page</a>.</p><img src="https://example.test/i.png">',
    text: null,
    headers: null,
  } as unknown as EmailRow;
  const raw = await buildSignedMessage(
    email,
    builtinSendingDomain(t.deps.secrets, 1, mailDomain),
    `<${email.id}@${mailDomain}>`,
    new Date(),
    { attachments: [], inReplyTo: null, listUnsubscribe: null },
  );
  await insertOutboxMessage(t.deps.db, {
    teamId,
    emailId: email.id,
    envelopeFrom: `bounce+x@${mailDomain}`,
    envelopeTo: ['owner@example.test'],
    subject: email.subject,
    raw,
    at: new Date(),
  });
  const row = await t.deps.db
    .selectFrom('outbox')
    .select('id')
    .where('email_id', '=', email.id)
    .executeTakeFirstOrThrow();
  return String(row.id);
}

describe('GET /admin/v1/outbox/{id}', () => {
  it('needs the admin token, a numeric id, and answers 404 for an unknown one', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/admin/v1/outbox/1' })).statusCode).toBe(401);
    expect((await get('/outbox/1', 'wrong-token')).statusCode).toBe(401);
    expect((await get('/outbox/abc')).statusCode).toBe(400);
    expect((await get('/outbox/9999999999')).statusCode).toBe(404);
  });

  it('returns the message; the CLI prints it as text (HTML-only mail has a text part) or raw', async () => {
    const team = await createTeam(t.app);
    const id = await storedMessage(team.id);
    const response = await get(`/outbox/${id}`);
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json() as { raw: string };
    expect(body).toMatchObject({ id, subject: 'Outbox show', envelope: { to: ['owner@example.test'] } });
    const text = await outboxMessageText(body);
    expect(text).toContain('Subject: Outbox show');
    expect(text).toContain('DKIM: signed');
    expect(text).toContain('HI');
    expect(text).toContain('See the page [https://example.test/x].');
    expect(text).not.toContain('i.png');
    expect(outboxMessageEml(body)).toBe(body.raw);
    expect(body.raw).toMatch(/^DKIM-Signature:/);
    const listed = JSON.parse(outboxSummary((await get(`/outbox?teamId=${team.id}`)).json())) as Record<
      string,
      unknown
    >[];
    const summary = listed.find((m) => m.id === id);
    expect(summary).toEqual({
      id,
      createdAt: expect.any(String),
      teamId: team.id,
      emailId: expect.any(String),
      to: ['owner@example.test'],
      subject: 'Outbox show',
    });
  });
});

describe('herald admin outbox show / dns', () => {
  const show = adminCommands.find((c) => c.resource === 'outbox' && c.action === 'show')!;
  const dns = adminCommands.find((c) => c.resource === 'dns' && c.action === 'records')!;

  it('maps the id, refuses anything else', () => {
    expect(show.toRequest({}, ['12'])).toEqual({ method: 'GET', path: '/outbox/12' });
    expect(() => show.toRequest({}, [])).toThrow(/outbox message id/);
    expect(() => show.toRequest({}, ['x'])).toThrow(/outbox message id/);
    expect(() => show.toRequest({}, ['1', '2'])).toThrow(/outbox message id/);
    expect(dns.toRequest({}, [])).toEqual({ method: 'GET', path: '/dns' });
  });

  it('GET /admin/v1/dns needs the admin token', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/admin/v1/dns' })).statusCode).toBe(401);
    expect((await get('/dns')).statusCode).toBe(200);
  });
});
