// Strings PostgreSQL cannot store (NUL, lone UTF-16 surrogates) are refused where they enter: any
// body field, path parameter or query value answers 400 BAD_REQUEST naming the field, and nothing
// is stored. One hook (src/platform/input-strings.ts), so these probes span several areas.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TEST_ADMIN_TOKEN, type TestApp } from '../support/app.ts';
import { bearer, createTeam, type TestTeam } from '../support/factory.ts';

let t: TestApp;
let team: TestTeam;
let bookId: string;

type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
const call = (method: Method, url: string, payload?: unknown, key = team.key) =>
  t.app.inject({
    method,
    url: url.startsWith('/admin') ? url : `/api${url}`,
    headers: url.startsWith('/admin') ? bearer(TEST_ADMIN_TOKEN) : bearer(key),
    ...(payload === undefined ? {} : { payload: payload as object }),
  });

const refusal = (response: { statusCode: number; body: string; json(): unknown }) => {
  expect(response.statusCode, response.body).toBe(400);
  return (response.json() as { error: { code: string; message: string } }).error;
};

const templateCount = async () => (await call('GET', '/v1/templates?limit=100')).json().count as number;

beforeAll(async () => {
  t = await createTestApp();
  team = await createTeam(t.app);
  const book = await call('POST', '/v1/contactBooks', { name: 'Readers' });
  bookId = book.json().id;
});
afterAll(() => t.close());

describe('body fields', () => {
  it('a NUL in a template name answers 400 naming the field, and no template is stored', async () => {
    const before = await templateCount();
    const error = refusal(
      await call('POST', '/v1/templates', { name: 'Wel\u0000come', subject: 'Hi', html: '<p>x</p>' }),
    );
    expect(error.code).toBe('BAD_REQUEST');
    expect(error.message).toBe('name: must not contain NUL (\\u0000) characters');
    expect(await templateCount()).toBe(before);
  });

  it('a lone surrogate in an email subject or text answers 400 naming the field', async () => {
    const base = { from: 'a@example.com', to: 'b@example.com', subject: 'Hi', text: 'Hello' };
    expect(refusal(await call('POST', '/v1/emails', { ...base, subject: 'Hi \ud800' })).message).toBe(
      'subject: must not contain unpaired UTF-16 surrogates (invalid Unicode)',
    );
    expect(refusal(await call('POST', '/v1/emails', { ...base, text: '\udc00 low first' })).message).toMatch(/^text: /);
  });

  it('fields inside arrays and objects are named by their path (batch index, nested property)', async () => {
    const ok = { from: 'a@example.com', to: 'b@example.com', subject: 'Hi', text: 'Hello' };
    const batch = refusal(
      await call('POST', '/v1/emails/batch', [ok, { ...ok, to: ['c@example.com', 'd\u0000@x.com'] }]),
    );
    expect(batch.message).toMatch(/^1\.to\.1: must not contain NUL/);
    const contact = refusal(
      await call('POST', `/v1/contactBooks/${bookId}/contacts`, {
        email: 'p@example.com',
        properties: { plan: 'gold\u0000' },
      }),
    );
    expect(contact.message).toMatch(/^properties\.plan: must not contain NUL/);
  });

  it('an object key with a NUL is named by its parent, without echoing the key', async () => {
    const error = refusal(
      await call('POST', '/v1/emails', {
        from: 'a@example.com',
        subject: 'x',
        text: 'y',
        headers: { 'X-\u0000': 'v' },
      }),
    );
    expect(error.message).toBe('headers: keys must not contain NUL (\\u0000) characters');
  });

  it('admin API bodies are checked too: a team name with a NUL stores no team', async () => {
    const error = refusal(await call('POST', '/admin/v1/teams', { name: 'Acme\u0000', plan: 'free' }));
    expect(error.message).toMatch(/^name: must not contain NUL/);
  });

  it('well-formed text outside the BMP (a surrogate pair) is stored as sent', async () => {
    const response = await call('POST', '/v1/templates', { name: 'Party 🎉', subject: '😀 hi', html: '<p>ok</p>' });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().name).toBe('Party 🎉');
  });

  it('one past the edge: a NUL as the last character of a long subject is still refused', async () => {
    const error = refusal(await call('POST', '/v1/templates', { name: 'n', subject: `${'a'.repeat(997)}\u0000` }));
    expect(error.message).toMatch(/^subject: /);
  });
});

describe('path parameters', () => {
  it.each([
    ['GET', '/v1/webhooks/%00', 'params.webhookId'],
    ['GET', '/v1/templates/tpl%00', 'params.templateId'],
    ['DELETE', '/v1/contactBooks/%00x', 'params.contactBookId'],
    ['GET', '/v1/emails/abc%00def', 'params.emailId'],
  ] as const)('%s %s answers 400 naming %s', async (method, url, field) => {
    expect(refusal(await call(method, url)).message).toMatch(new RegExp(`^${field.replace('.', '\\.')}: `));
  });

  it('a lone surrogate sent as invalid UTF-8 in a path answers 400, not 500', async () => {
    const response = await call('GET', '/v1/webhooks/%ED%A0%80');
    expect(response.statusCode).toBe(400);
  });
});

describe('query values', () => {
  it.each([
    [`/v1/contactBooks/BOOK/contacts?emails=a%00b`, 'query.emails'],
    [`/v1/contactBooks/BOOK/contacts?ids=x%00`, 'query.ids'],
    ['/v1/webhooks/calls?webhookId=%00', 'query.webhookId'],
  ])('%s answers 400 naming %s', async (url, field) => {
    const error = refusal(await call('GET', url.replace('BOOK', bookId)));
    expect(error.message).toMatch(new RegExp(`^${field.replace('.', '\\.')}: must not contain NUL`));
  });

  it('the admin suppressions filter refuses a NUL in email', async () => {
    const error = refusal(await call('GET', `/admin/v1/teams/${team.id}/suppressions?email=a%00@b.com`));
    expect(error.message).toMatch(/^query\.email: must not contain NUL/);
  });
});
