// Strings that become MIME headers refuse CR and LF (header injection): the subject, the display
// names of from/to/cc/replyTo, custom header names and values, attachment file names, a template's
// subject and a contact book's confirmation from and subject. Each answers 400 naming the field and
// stores nothing; variables filled into a subject have their line breaks turned into spaces.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer } from '../support/factory.ts';
import { emails, startEmailHarness, storedEmailCount, type EmailHarness, type SendingTeam } from './support.ts';

let h: EmailHarness;
let team: SendingTeam;
let api: ReturnType<typeof emails>;

beforeAll(async () => {
  h = await startEmailHarness();
  team = await h.team();
  api = emails(h.app, team.key);
});
afterAll(async () => h.close());

const base = () => ({ from: team.from(), to: 'someone@example.com', subject: 'Hi', text: 'Hello' });
const INJECTED = 'x\r\nBcc: victim@example.com';

const refusedNaming = async (payload: unknown, field: string) => {
  const before = await storedEmailCount(h.t, team.id);
  const response = await api.send(payload);
  expect(response.statusCode, response.body).toBe(400);
  const error = response.json().error as { code: string; message: string };
  expect(error.code).toBe('BAD_REQUEST');
  expect(error.message).toContain(field);
  expect(await storedEmailCount(h.t, team.id)).toBe(before);
  return error.message;
};

describe('email send', () => {
  it.each([
    ['subject', { subject: `Hi ${INJECTED}` }],
    ['subject', { subject: 'Hi\rthere' }],
    ['subject', { subject: 'Hi\nthere' }],
    ['from', { from: `Evil\r\nBcc: victim@example.com <${'hello'}@DOMAIN>` }],
    ['from', { from: 'hello@DOMAIN\r\n' }],
    ['to', { to: `"Ada\r\nBcc: v@example.com" <ada@example.com>` }],
    ['to', { to: ['ok@example.com', 'ada@example.com\n'] }],
    ['cc', { cc: 'Ada\n <ada@example.com>' }],
    ['replyTo', { replyTo: `Reply\r\n <r@example.com>` }],
    ['headers', { headers: { 'X-Campaign': INJECTED } }],
    ['headers', { headers: { 'X-Bad\r\nBcc': 'v@example.com' } }],
    ['attachments', { attachments: [{ filename: 'a.txt\r\nBcc: v@example.com', content: 'aGk=' }] }],
  ])('CR or LF in %s answers 400 naming it and stores nothing', async (field, fields) => {
    const payload = JSON.parse(JSON.stringify({ ...base(), ...fields }).replaceAll('DOMAIN', team.domain.name));
    await refusedNaming(payload, field);
  });

  it('the edge: the same fields on one line are accepted', async () => {
    const response = await api.send({
      ...base(),
      from: `Hello Team <hello@${team.domain.name}>`,
      to: '"Ada, L." <ada@example.com>',
      replyTo: 'Reply <r@example.com>',
      headers: { 'X-Campaign': 'spring: one line' },
      attachments: [{ filename: 'a b.txt', content: 'aGk=' }],
    });
    expect(response.statusCode, response.body).toBe(200);
  });

  it('a batch names the message and field', async () => {
    const response = await api.batch([base(), { ...base(), subject: INJECTED }]);
    expect(response.statusCode).toBe(400);
    expect(response.json().error.message).toContain('1.subject');
  });

  it('line breaks in variables filled into the subject become spaces', async () => {
    const id = await api.sent({ ...base(), subject: 'Hi {{name}}', variables: { name: 'Ada\r\nBcc: v@example.com' } });
    const email = (await api.get(id)).json() as { subject: string };
    expect(email.subject).toBe('Hi Ada Bcc: v@example.com');
  });
});

describe('templates and contact books', () => {
  const call = (method: 'POST' | 'PATCH', url: string, payload: unknown) =>
    h.app.inject({ method, url: `/api${url}`, headers: bearer(team.key), payload: payload as object });

  it('a template subject with a line break is 400 naming subject, on create and on update', async () => {
    const created = await call('POST', '/v1/templates', { name: 't', subject: INJECTED });
    expect(created.statusCode).toBe(400);
    expect(created.json().error.message).toContain('subject');
    const ok = await call('POST', '/v1/templates', { name: 't', subject: 'fine' });
    expect(ok.statusCode, ok.body).toBe(200);
    const patched = await call('PATCH', `/v1/templates/${ok.json().id}`, { subject: INJECTED });
    expect(patched.statusCode).toBe(400);
    expect(patched.json().error.message).toContain('subject');
  });

  it('a contact book refuses a confirmation subject or from with a line break', async () => {
    const subject = await call('POST', '/v1/contactBooks', { name: 'b1', doubleOptInSubject: INJECTED });
    expect(subject.statusCode).toBe(400);
    expect(subject.json().error.message).toContain('doubleOptInSubject');
    const from = await call('POST', '/v1/contactBooks', {
      name: 'b2',
      doubleOptInFrom: `Us\r\nBcc: v@example.com <hello@${team.domain.name}>`,
    });
    expect(from.statusCode).toBe(400);
    expect(from.json().error.message).toContain('doubleOptInFrom');
  });
});
