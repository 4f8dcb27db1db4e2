// Contact books through HTTP against the real database: fields and defaults, the double opt-in
// field checks, flat `{error: string}` 403/404 bodies, access rules, tenant isolation, delete.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmailHarness, unverifiedDomain, type EmailHarness, type SendingTeam } from '../emails/support.ts';
import { createTeam, type TestTeam } from '../support/factory.ts';
import { contactsClient, doc, errorOf, flatErrorOf, type Book } from './helpers.ts';

let h: EmailHarness;
let team: SendingTeam;
let other: TestTeam;
let api: ReturnType<typeof contactsClient>;

beforeAll(async () => {
  h = await startEmailHarness();
  team = await h.team();
  other = await createTeam(h.app);
  api = contactsClient(h.app, team.key);
});
afterAll(() => h.close());

describe('create, read, list', () => {
  it('creates a book with the defaults and reads it back', async () => {
    h.t.clock.set('2026-03-01T10:00:00.000Z');
    const response = await api.createBook({ name: 'Customers' });
    expect(response.statusCode).toBe(200);
    const book = response.json() as Book;
    expect(book).toEqual({
      id: expect.stringMatching(/^cb_[0-9a-z]{26}$/),
      name: 'Customers',
      teamId: team.id,
      properties: {},
      variables: [],
      emoji: '📙',
      doubleOptInEnabled: false,
      doubleOptInFrom: null,
      doubleOptInSubject: null,
      doubleOptInContent: null,
      createdAt: '2026-03-01T10:00:00.000Z',
      updatedAt: '2026-03-01T10:00:00.000Z',
      _count: { contacts: 0 },
    });
    expect((await api.getBook(book.id)).json()).toEqual(book);
  });

  it('keeps every given field, with a from address on a verified domain', async () => {
    const fields = {
      name: 'Launch list',
      emoji: '🚀',
      properties: { plan: 'pro' },
      variables: ['company', 'plan'],
      doubleOptInEnabled: true,
      doubleOptInFrom: `Acme <${team.from('news')}>`,
      doubleOptInSubject: 'Please confirm',
      doubleOptInContent: doc,
    };
    const book = await api.book(fields);
    expect(book).toMatchObject(fields);
    expect((await api.getBook(book.id)).json()).toEqual(book);
  });

  it("lists the team's books oldest first with their contact counts", async () => {
    const fresh = await createTeam(h.app);
    const client = contactsClient(h.app, fresh.key);
    const first = await client.book({ name: 'A' });
    h.t.clock.advance(1);
    const second = await client.book({ name: 'B' });
    await client.contact(second.id, { email: 'one@example.com' });
    await client.contact(second.id, { email: 'two@example.com' });
    const listed = (await client.listBooks()).json() as Book[];
    expect(listed.map((b) => [b.id, b._count.contacts])).toEqual([
      [first.id, 0],
      [second.id, 2],
    ]);
    expect((await client.getBook(second.id)).json()).toMatchObject({ _count: { contacts: 2 } });
  });
});

describe('double opt-in fields', () => {
  it('refuses a from address on an unverified domain, naming the field', async () => {
    const domain = await unverifiedDomain(h.app, team.key);
    const response = await api.createBook({ name: 'X', doubleOptInFrom: `hi@${domain.name}` });
    expect(response.statusCode).toBe(400);
    expect(errorOf(response)).toMatchObject({
      code: 'BAD_REQUEST',
      message: expect.stringContaining('doubleOptInFrom'),
    });
  });

  it("refuses a from address on another team's verified domain and a malformed one", async () => {
    const stranger = await h.team();
    expect((await api.createBook({ name: 'X', doubleOptInFrom: stranger.from() })).statusCode).toBe(400);
    const malformed = await api.createBook({ name: 'X', doubleOptInFrom: 'not an address' });
    expect(malformed.statusCode).toBe(400);
    expect(errorOf(malformed).message).toContain('doubleOptInFrom');
  });

  it('refuses content that is not an editor document, naming the field', async () => {
    for (const content of ['{not json', '[]', '{"version":1}']) {
      const response = await api.createBook({ name: 'X', doubleOptInContent: content });
      expect(response.statusCode, content).toBe(400);
      expect(errorOf(response).message).toContain('doubleOptInContent');
    }
  });

  it('checks the fields on update too, and null clears them', async () => {
    const book = await api.book({ doubleOptInFrom: team.from(), doubleOptInContent: doc });
    expect((await api.patchBook(book.id, { doubleOptInFrom: 'x@unverified.example' })).statusCode).toBe(400);
    expect((await api.patchBook(book.id, { doubleOptInContent: 'nope' })).statusCode).toBe(400);
    const cleared = await api.patchBook(book.id, { doubleOptInFrom: null, doubleOptInContent: null });
    expect(cleared.json()).toMatchObject({ doubleOptInFrom: null, doubleOptInContent: null });
  });
});

describe('limits at their edges', () => {
  const many = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`p${i}`, 'v']));
  const cases: { field: string; ok: unknown; bad: unknown; limit: string }[] = [
    { field: 'name', ok: 'n'.repeat(200), bad: 'n'.repeat(201), limit: '200' },
    { field: 'properties', ok: many(100), bad: many(101), limit: '100' },
    { field: 'properties', ok: { ['k'.repeat(100)]: 'v' }, bad: { ['k'.repeat(101)]: 'v' }, limit: '100' },
    { field: 'properties', ok: { k: 'v'.repeat(2000) }, bad: { k: 'v'.repeat(2001) }, limit: '2000' },
    {
      field: 'variables',
      ok: Array.from({ length: 100 }, (_, i) => `v${i}`),
      bad: Array.from({ length: 101 }, (_, i) => `v${i}`),
      limit: '100',
    },
    { field: 'doubleOptInSubject', ok: 's'.repeat(998), bad: 's'.repeat(999), limit: '998' },
  ];
  for (const { field, ok, bad, limit } of cases) {
    it(`${field}: at the limit ${limit} accepted, one past it 400 naming the field (create and update)`, async () => {
      const accepted = await api.createBook({ name: 'Edge', [field]: ok });
      expect(accepted.statusCode, accepted.body).toBe(200);
      const refused = await api.createBook({ name: 'Edge', [field]: bad });
      expect(refused.statusCode).toBe(400);
      expect(errorOf(refused).message).toContain(field);
      expect(errorOf(refused).message).toContain(limit);
      const id = (accepted.json() as Book).id;
      expect((await api.patchBook(id, { [field]: ok })).statusCode).toBe(200);
      expect((await api.patchBook(id, { [field]: bad })).statusCode).toBe(400);
    });
  }

  it('requires a name of at least one character', async () => {
    expect((await api.createBook({})).statusCode).toBe(400);
    expect((await api.createBook({ name: '  ' })).statusCode).toBe(400);
  });
});

describe('update and delete', () => {
  it('changes only what is sent', async () => {
    const book = await api.book({ name: 'Old', emoji: '📕', variables: ['a'] });
    h.t.clock.advance(1000);
    const response = await api.patchBook(book.id, { name: 'New' });
    expect(response.statusCode).toBe(200);
    const changed = response.json() as Book;
    expect(changed).toMatchObject({ name: 'New', emoji: '📕', variables: ['a'], createdAt: book.createdAt });
    expect(changed.updatedAt).not.toBe(book.updatedAt);
    expect((await api.patchBook(book.id, {})).json()).toEqual(changed);
  });

  it('deletes the book and every contact in it', async () => {
    const book = await api.book();
    const contactId = await api.contact(book.id, { email: 'gone@example.com' });
    const response = await api.deleteBook(book.id);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ id: book.id, success: true, message: expect.any(String) });
    expect((await api.getBook(book.id)).statusCode).toBe(404);
    const rows = await h.t.deps.db
      .selectFrom('contacts')
      .select('id')
      .where('team_id', '=', team.id)
      .where('id', '=', contactId)
      .execute();
    expect(rows).toEqual([]);
    const again = await api.deleteBook(book.id);
    expect(again.statusCode).toBe(404);
    expect(again.json()).toEqual({ error: expect.any(String) });
  });
});

describe('tenant isolation and access', () => {
  it("answers another team's book as missing, with a flat body, on every book endpoint", async () => {
    const book = await api.book();
    const stranger = contactsClient(h.app, other.key);
    for (const response of [
      await stranger.getBook(book.id),
      await stranger.patchBook(book.id, { name: 'Mine' }),
      await stranger.deleteBook(book.id),
    ]) {
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ error: 'Contact book not found' });
    }
    expect(((await stranger.listBooks()).json() as Book[]).map((b) => b.id)).not.toContain(book.id);
    expect((await api.getBook(book.id)).json()).toMatchObject({ name: 'Newsletter' });
  });

  it('refuses keys other than full access with a flat 403', async () => {
    const book = await api.book();
    for (const kind of ['sending', 'readonly', 'sandbox', 'live_ai'] as const) {
      const client = contactsClient(h.app, (await team.makeKey(kind)).key);
      for (const response of [
        await client.listBooks(),
        await client.getBook(book.id),
        await client.createBook({ name: 'X' }),
        await client.deleteBook(book.id),
      ]) {
        expect(response.statusCode, kind).toBe(403);
        expect(flatErrorOf(response)).toMatch(/cannot do this/);
      }
    }
  });

  it('lets a full access key limited to one domain reach every book of its team', async () => {
    const book = await api.book();
    const pinned = contactsClient(h.app, (await team.makeKey('full', { domainId: team.domain.id })).key);
    expect((await pinned.getBook(book.id)).statusCode).toBe(200);
    expect(((await pinned.listBooks()).json() as Book[]).map((b) => b.id)).toContain(book.id);
    const made = await pinned.createBook({ name: 'Pinned' });
    expect(made.statusCode).toBe(200);
    expect((await pinned.deleteBook((made.json() as Book).id)).statusCode).toBe(200);
  });

  it('answers 401 without a key', async () => {
    const response = await h.app.inject({ method: 'GET', url: '/api/v1/contactBooks' });
    expect(response.statusCode).toBe(401);
  });
});
