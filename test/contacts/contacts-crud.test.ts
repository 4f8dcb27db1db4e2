// Contacts through HTTP against the real database: create, read, change, delete, the list with its
// filters and paging limits, field limits, tenant isolation and the access rule (FULL).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.ts';
import { createTeam, type TestTeam } from '../support/factory.ts';
import { contactsClient, errorOf, type Book, type Contact } from './helpers.ts';

let t: TestApp;
let team: TestTeam;
let api: ReturnType<typeof contactsClient>;
let book: Book;

beforeAll(async () => {
  t = await createTestApp();
  team = await createTeam(t.app);
  api = contactsClient(t.app, team.key);
  book = await api.book();
});
afterAll(() => t.close());

describe('create and read', () => {
  it('stores the email trimmed and lower-cased, with defaults, and reads it back', async () => {
    t.clock.set('2026-04-01T08:00:00.000Z');
    const response = await api.create(book.id, { email: '  Ada.Lovelace@Example.COM ' });
    expect(response.statusCode, response.body).toBe(200);
    const { contactId } = response.json() as { contactId: string };
    expect(contactId).toMatch(/^ct_[0-9a-z]{26}$/);
    expect(await api.read(book.id, contactId)).toEqual({
      id: contactId,
      firstName: null,
      lastName: null,
      email: 'ada.lovelace@example.com',
      subscribed: true,
      properties: {},
      contactBookId: book.id,
      createdAt: '2026-04-01T08:00:00.000Z',
      updatedAt: '2026-04-01T08:00:00.000Z',
    });
  });

  it('keeps every given field', async () => {
    const id = await api.contact(book.id, {
      email: 'grace@example.com',
      firstName: 'Grace',
      lastName: 'Hopper',
      subscribed: false,
      properties: { rank: 'admiral' },
    });
    expect(await api.read(book.id, id)).toMatchObject({
      firstName: 'Grace',
      lastName: 'Hopper',
      subscribed: false,
      properties: { rank: 'admiral' },
    });
  });

  it('answers 409 NOT_UNIQUE for a second contact with the same email in the book', async () => {
    await api.contact(book.id, { email: 'twice@example.com' });
    const again = await api.create(book.id, { email: 'TWICE@example.com' });
    expect(again.statusCode).toBe(409);
    expect(errorOf(again).code).toBe('NOT_UNIQUE');
    const otherBook = await api.book();
    expect((await api.create(otherBook.id, { email: 'twice@example.com' })).statusCode).toBe(200);
  });

  it('refuses an invalid address, naming the field', async () => {
    for (const email of ['', 'no-at-sign', 'a@b', `${'x'.repeat(310)}@example.com`]) {
      const response = await api.create(book.id, { email });
      expect(response.statusCode, email).toBe(400);
      expect(errorOf(response).message).toContain('email');
    }
    expect((await api.create(book.id, {})).statusCode).toBe(400);
  });

  it('answers 404 for a missing book or contact', async () => {
    expect(errorOf(await api.create('cb_missing', { email: 'x@example.com' })).code).toBe('NOT_FOUND');
    expect((await api.get(book.id, 'ct_missing')).statusCode).toBe(404);
  });
});

describe('field limits at their edges', () => {
  const many = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`p${i}`, 'v']));
  const cases: { name: string; field: string; ok: unknown; bad: unknown; limit: string }[] = [
    { name: 'properties count', field: 'properties', ok: many(100), bad: many(101), limit: '100' },
    {
      name: 'property name',
      field: 'properties',
      ok: { ['k'.repeat(100)]: 'v' },
      bad: { ['k'.repeat(101)]: 'v' },
      limit: '100',
    },
    {
      name: 'property value',
      field: 'properties',
      ok: { k: 'v'.repeat(2000) },
      bad: { k: 'v'.repeat(2001) },
      limit: '2000',
    },
    { name: 'firstName', field: 'firstName', ok: 'f'.repeat(200), bad: 'f'.repeat(201), limit: '200' },
    { name: 'lastName', field: 'lastName', ok: 'l'.repeat(200), bad: 'l'.repeat(201), limit: '200' },
  ];
  let n = 0;
  for (const { name, field, ok, bad, limit } of cases) {
    it(`${name}: at the limit ${limit} accepted, one past it 400 naming the field (create and patch)`, async () => {
      const id = await api.contact(book.id, { email: `edge${++n}@example.com`, [field]: ok });
      const refused = await api.create(book.id, { email: `edge${++n}@example.com`, [field]: bad });
      expect(refused.statusCode).toBe(400);
      expect(errorOf(refused).message).toContain(field);
      expect(errorOf(refused).message).toContain(limit);
      expect((await api.patch(book.id, id, { [field]: ok })).statusCode).toBe(200);
      expect((await api.patch(book.id, id, { [field]: bad })).statusCode).toBe(400);
    });
  }

  it('refuses property values that are not strings', async () => {
    const response = await api.create(book.id, { email: 'typed@example.com', properties: { age: 42 } });
    expect(response.statusCode).toBe(400);
    expect(errorOf(response).message).toContain('properties');
  });
});

describe('patch and delete', () => {
  it('changes only what is sent; properties sent replace the map', async () => {
    const id = await api.contact(book.id, {
      email: 'patch@example.com',
      firstName: 'Pat',
      lastName: 'Ch',
      properties: { a: '1', b: '2' },
    });
    t.clock.advance(5000);
    const response = await api.patch(book.id, id, { lastName: null, properties: { c: '3' } });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ contactId: id });
    const after = await api.read(book.id, id);
    expect(after).toMatchObject({
      firstName: 'Pat',
      lastName: null,
      properties: { c: '3' },
      subscribed: true,
      email: 'patch@example.com',
    });
    expect(after.updatedAt).not.toBe(after.createdAt);
    expect((await api.patch(book.id, id, { subscribed: false })).statusCode).toBe(200);
    expect((await api.read(book.id, id)).subscribed).toBe(false);
  });

  it('does not change the email with PATCH (400), and answers 404 for a missing contact', async () => {
    const id = await api.contact(book.id, { email: 'fixed@example.com' });
    expect((await api.patch(book.id, id, { email: 'other@example.com' })).statusCode).toBe(400);
    expect((await api.patch(book.id, 'ct_missing', { firstName: 'X' })).statusCode).toBe(404);
  });

  it('deletes a contact: {success}, then 404', async () => {
    const id = await api.contact(book.id, { email: 'delete-me@example.com' });
    const response = await api.remove(book.id, id);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ success: true });
    expect((await api.get(book.id, id)).statusCode).toBe(404);
    expect((await api.remove(book.id, id)).statusCode).toBe(404);
  });
});

describe('list', () => {
  let listBook: Book;
  let ids: string[];
  beforeAll(async () => {
    listBook = await api.book({ name: 'List' });
    ids = [];
    // Ids are time-ordered: one millisecond apart, creation order is id order.
    for (let i = 0; i < 5; i++) {
      t.clock.advance(1);
      ids.push(await api.contact(listBook.id, { email: `l${i}@example.com` }));
    }
  });
  const listed = async (query: string) => {
    const response = await api.list(listBook.id, query);
    expect(response.statusCode, response.body).toBe(200);
    return (response.json() as Contact[]).map((c) => c.id);
  };

  it('lists in id order, paged', async () => {
    expect([...ids].sort()).toEqual(ids);
    expect(await listed('')).toEqual(ids);
    expect(await listed('?limit=2')).toEqual(ids.slice(0, 2));
    expect(await listed('?limit=2&page=2')).toEqual(ids.slice(2, 4));
    expect(await listed('?limit=2&page=3')).toEqual(ids.slice(4));
    expect(await listed('?page=4&limit=2')).toEqual([]);
  });

  it('filters by emails and ids, comma-separated and repeated', async () => {
    expect(await listed('?emails=l1@example.com,L3@Example.com')).toEqual([ids[1], ids[3]]);
    expect(await listed('?emails=l1@example.com&emails=l3@example.com')).toEqual([ids[1], ids[3]]);
    expect(await listed('?emails=l0@example.com,l1@example.com&emails=l4@example.com')).toEqual([
      ids[0],
      ids[1],
      ids[4],
    ]);
    expect(await listed(`?ids=${ids[0]},${ids[2]}`)).toEqual([ids[0], ids[2]]);
    expect(await listed(`?ids=${ids[0]}&ids=${ids[2]}`)).toEqual([ids[0], ids[2]]);
    expect(await listed(`?ids=${ids[0]},${ids[2]}&emails=l2@example.com`)).toEqual([ids[2]]);
    expect(await listed('?emails=nobody@example.com')).toEqual([]);
    expect(await listed('?emails=')).toEqual(ids);
  });

  it('page 10,000 and limit 200 are accepted; one past either is 400 naming it', async () => {
    expect((await api.list(listBook.id, '?page=10000')).statusCode).toBe(200);
    expect((await api.list(listBook.id, '?limit=200')).statusCode).toBe(200);
    for (const [query, field] of [
      ['?page=10001', 'page'],
      ['?limit=201', 'limit'],
      ['?page=0', 'page'],
      ['?limit=0', 'limit'],
    ] as const) {
      const response = await api.list(listBook.id, query);
      expect(response.statusCode, query).toBe(400);
      expect(errorOf(response).message).toContain(field);
    }
  });

  it('answers 404 for a missing book', async () => {
    expect((await api.list('cb_missing')).statusCode).toBe(404);
  });
});

describe('tenant isolation and access', () => {
  it("answers another team's book and contact as missing on every contact endpoint", async () => {
    const id = await api.contact(book.id, { email: 'mine@example.com' });
    const stranger = contactsClient(t.app, (await createTeam(t.app)).key);
    const responses = [
      await stranger.list(book.id),
      await stranger.create(book.id, { email: 'theirs@example.com' }),
      await stranger.get(book.id, id),
      await stranger.patch(book.id, id, { firstName: 'X' }),
      await stranger.put(book.id, id, { firstName: 'X' }),
      await stranger.put(book.id, id, { email: 'mine@example.com' }),
      await stranger.remove(book.id, id),
      await stranger.bulkAdd(book.id, [{ email: 'theirs@example.com' }]),
      await stranger.bulkDelete(book.id, { contactIds: [id] }),
    ];
    for (const response of responses) {
      expect(response.statusCode).toBe(404);
      expect(errorOf(response).code).toBe('NOT_FOUND');
    }
    expect(await api.read(book.id, id)).toMatchObject({ email: 'mine@example.com', firstName: null });
  });

  it('answers a contact of another book of the same team as missing', async () => {
    const id = await api.contact(book.id, { email: 'book-a@example.com' });
    const otherBook = await api.book();
    expect((await api.get(otherBook.id, id)).statusCode).toBe(404);
    expect((await api.remove(otherBook.id, id)).statusCode).toBe(404);
  });

  it('refuses a sending access key with 403 SCOPE_DENIED', async () => {
    const id = await api.contact(book.id, { email: 'scoped@example.com' });
    const sending = contactsClient(t.app, (await team.makeKey('sending')).key);
    for (const response of [
      await sending.list(book.id),
      await sending.create(book.id, { email: 'x@example.com' }),
      await sending.get(book.id, id),
      await sending.bulkAdd(book.id, [{ email: 'x@example.com' }]),
    ]) {
      expect(response.statusCode).toBe(403);
      expect(errorOf(response).code).toBe('SCOPE_DENIED');
    }
  });

  it('lets a domain-limited full access key manage contacts (books are not tied to domains)', async () => {
    const domain = await t.app.inject({
      method: 'POST',
      url: '/api/v1/domains',
      headers: { authorization: `Bearer ${team.key}` },
      payload: { name: `d${Date.now()}.example.com`, region: 'us-east-1' },
    });
    const pinned = contactsClient(
      t.app,
      (await team.makeKey('full', { domainId: (domain.json() as { id: number }).id })).key,
    );
    const id = await pinned.contact(book.id, { email: 'pinned@example.com' });
    expect((await pinned.get(book.id, id)).statusCode).toBe(200);
  });
});
