// POST /v1/emails: each documented limit at its edge and one past it; the from address rules.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  emails,
  startEmailHarness,
  storedEmailCount,
  unverifiedDomain,
  type EmailHarness,
  type SendingTeam,
} from './support.ts';

const MB = 1024 * 1024;
let h: EmailHarness;
let team: SendingTeam;
let api: ReturnType<typeof emails>;

beforeAll(async () => {
  h = await startEmailHarness();
  team = await h.team({ plan: 'pro' });
  api = emails(h.app, team.key);
});
afterAll(async () => h.close());

const base = () => ({ from: team.from(), to: 'someone@example.com', subject: 'Hi', text: 'Hello' });
const addresses = (n: number, offset = 0) => Array.from({ length: n }, (_, i) => `r${i + offset}@example.com`);
const b64 = (bytes: number) => Buffer.alloc(bytes, 7).toString('base64');

describe('recipients', () => {
  it('50 distinct recipients, with duplicates across fields in other cases and display-name forms, are accepted', async () => {
    const to = addresses(30);
    const cc = [...addresses(20, 30), 'R1@EXAMPLE.COM'];
    const bcc = ['Somebody <r2@Example.com>', '"Quoted, Name" <R49@example.com>'];
    const response = await api.send({ ...base(), to, cc, bcc });
    expect(response.statusCode, response.body).toBe(200);
  });

  it('51 distinct recipients answer 422 naming the count, and store nothing', async () => {
    const before = await storedEmailCount(h.t, team.id);
    const response = await api.send({
      ...base(),
      to: addresses(30),
      cc: addresses(20, 30),
      bcc: 'Last <r50@example.com>',
    });
    expect(response.statusCode).toBe(422);
    expect(response.json().error.code).toBe('UNPROCESSABLE_ENTITY');
    expect(response.json().error.message).toContain('51');
    expect(await storedEmailCount(h.t, team.id)).toBe(before);
  });

  it('to may be left out when bcc names somebody; no recipient at all is 400', async () => {
    const { to: _to, ...noTo } = base();
    expect((await api.send({ ...noTo, bcc: 'hidden@example.com' })).statusCode).toBe(200);
    const none = await api.send(noTo);
    expect(none.statusCode).toBe(400);
    expect(none.json().error.message).toContain('to');
  });

  it('a malformed address is 400 naming the field', async () => {
    const response = await api.send({ ...base(), cc: ['ok@example.com', 'not an address'] });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.message).toContain('cc');
  });
});

describe('fields', () => {
  it('subject 998 characters is accepted, 999 is 400', async () => {
    expect((await api.send({ ...base(), subject: 'x'.repeat(998) })).statusCode).toBe(200);
    const response = await api.send({ ...base(), subject: 'x'.repeat(999) });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.message).toContain('subject');
  });

  it('subject is required without templateId; html or text is required', async () => {
    const { subject: _s, ...noSubject } = base();
    expect((await api.send(noSubject)).statusCode).toBe(400);
    expect((await api.send({ ...base(), text: null })).statusCode).toBe(400);
    expect((await api.send({ ...base(), text: null, html: '<p>Hi</p>' })).statusCode).toBe(200);
  });

  it('a header value must not be empty', async () => {
    expect((await api.send({ ...base(), headers: { 'X-Campaign': 'a' } })).statusCode).toBe(200);
    expect((await api.send({ ...base(), headers: { 'X-Campaign': '' } })).statusCode).toBe(400);
  });

  it('variables: 200 entries accepted, 201 is 400; values of 10,000 accepted, 10,001 is 400', async () => {
    const vars = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`v${i}`, 'x']));
    expect((await api.send({ ...base(), variables: vars(200) })).statusCode).toBe(200);
    const many = await api.send({ ...base(), variables: vars(201) });
    expect(many.statusCode).toBe(400);
    expect(many.json().error.message).toContain('variables');
    expect((await api.send({ ...base(), variables: { name: 'x'.repeat(10_000) } })).statusCode).toBe(200);
    expect((await api.send({ ...base(), variables: { name: 'x'.repeat(10_001) } })).statusCode).toBe(400);
  });

  it('variables fill a plain subject and text', async () => {
    const id = await api.sent({
      ...base(),
      subject: 'Hi {{name}}',
      text: 'Dear {{ name }}',
      variables: { name: 'Ada' },
    });
    const email = (await api.get(id)).json();
    expect(email.subject).toBe('Hi Ada');
    expect(email.text).toBe('Dear Ada');
  });
});

describe('attachments', () => {
  const file = (filename = 'a.txt', content = b64(10)) => ({ filename, content });

  it('10 attachments are accepted, 11 are 400', async () => {
    expect((await api.send({ ...base(), attachments: Array.from({ length: 10 }, () => file()) })).statusCode).toBe(200);
    const response = await api.send({ ...base(), attachments: Array.from({ length: 11 }, () => file()) });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.message).toContain('attachments');
  });

  it('filename 255 characters accepted, 256 is 400', async () => {
    expect((await api.send({ ...base(), attachments: [file('f'.repeat(255))] })).statusCode).toBe(200);
    expect((await api.send({ ...base(), attachments: [file('f'.repeat(256))] })).statusCode).toBe(400);
  });

  it('content must be base64, at least 1 character', async () => {
    expect((await api.send({ ...base(), attachments: [file('a', '')] })).statusCode).toBe(400);
    expect((await api.send({ ...base(), attachments: [file('a', 'not base64!')] })).statusCode).toBe(400);
  });

  it('7 MB decoded per file accepted, one byte more is 400', async () => {
    expect((await api.send({ ...base(), attachments: [file('big', b64(7 * MB))] })).statusCode).toBe(200);
    const response = await api.send({ ...base(), attachments: [file('big', b64(7 * MB + 1))] });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.message).toContain('attachments.0.content');
  });

  it('10 MB decoded per email accepted, one byte more is 400', async () => {
    expect(
      (await api.send({ ...base(), attachments: [file('a', b64(5 * MB)), file('b', b64(5 * MB))] })).statusCode,
    ).toBe(200);
    const response = await api.send({ ...base(), attachments: [file('a', b64(5 * MB)), file('b', b64(5 * MB + 1))] });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.message).toContain('10 MB');
  });
});

describe('from address', () => {
  it('from on an unknown domain is 400 naming from', async () => {
    const response = await api.send({ ...base(), from: 'me@nowhere.example.org' });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.message).toContain('from');
  });

  it('from on an unverified domain of the team is 400', async () => {
    const domain = await unverifiedDomain(h.app, team.key);
    expect((await api.send({ ...base(), from: `me@${domain.name}` })).statusCode).toBe(400);
  });

  it("from on another team's verified domain is 400", async () => {
    const other = await h.team({ plan: 'pro' });
    expect((await api.send({ ...base(), from: other.from() })).statusCode).toBe(400);
  });

  it('the display-name form is accepted', async () => {
    expect((await api.send({ ...base(), from: `Herald <${team.from('news')}>` })).statusCode).toBe(200);
  });

  it('a key limited to a domain sends only from it (403 FORBIDDEN otherwise)', async () => {
    const second = await team.addDomain();
    const { key } = await team.makeKey('sending', { domainId: team.domain.id });
    const limited = emails(h.app, key);
    expect((await limited.send(base())).statusCode).toBe(200);
    const response = await limited.send({ ...base(), from: `x@${second.name}` });
    expect(response.statusCode).toBe(403);
    expect(response.json().error.code).toBe('FORBIDDEN');
  });

  it('a read only key cannot send (403 SCOPE_DENIED)', async () => {
    const { key } = await team.makeKey('readonly');
    expect((await emails(h.app, key).send(base())).json().error.code).toBe('SCOPE_DENIED');
  });
});
