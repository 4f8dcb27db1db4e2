// PUT upsert rules, bulk add (upsert by email, all or nothing, 1,000 per request) and bulk delete.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.ts';
import { createTeam, type TestTeam } from '../support/factory.ts';
import { contactsClient, errorOf, type Book, type Contact } from './helpers.ts';

let t: TestApp;
let team: TestTeam;
let api: ReturnType<typeof contactsClient>;

beforeAll(async () => {
  t = await createTestApp();
  team = await createTeam(t.app);
  api = contactsClient(t.app, team.key);
});
afterAll(() => t.close());

const contactsOf = async (bookId: string) => (await api.list(bookId, '?limit=200')).json() as Contact[];

describe('PUT upsert', () => {
  let book: Book;
  beforeAll(async () => {
    book = await api.book({ name: 'Upserts' });
  });

  it('with the email the path contact already has: updates it', async () => {
    const id = await api.contact(book.id, { email: 'same@example.com', firstName: 'A', lastName: 'B' });
    const response = await api.put(book.id, id, { email: 'Same@Example.com', firstName: 'C' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ contactId: id });
    expect(await api.read(book.id, id)).toMatchObject({ email: 'same@example.com', firstName: 'C', lastName: 'B' });
  });

  it('with an email new to the book: the path contact takes it', async () => {
    const id = await api.contact(book.id, { email: 'before@example.com' });
    const response = await api.put(book.id, id, { email: 'after@example.com' });
    expect(response.json()).toEqual({ contactId: id });
    expect((await api.read(book.id, id)).email).toBe('after@example.com');
  });

  it('with an email new to the book and no contact at the path: creates one with a new id', async () => {
    const response = await api.put(book.id, 'ct_notyetthere', {
      email: 'created@example.com',
      firstName: 'New',
      properties: { a: '1' },
    });
    expect(response.statusCode).toBe(200);
    const { contactId } = response.json() as { contactId: string };
    expect(contactId).toMatch(/^ct_[0-9a-z]{26}$/);
    expect(await api.read(book.id, contactId)).toMatchObject({
      email: 'created@example.com',
      firstName: 'New',
      properties: { a: '1' },
      subscribed: true,
    });
  });

  it('with an email that belongs to another contact: 409 NOT_UNIQUE, nothing changes', async () => {
    const owner = await api.contact(book.id, { email: 'owner@example.com' });
    const other = await api.contact(book.id, { email: 'other@example.com', firstName: 'Other' });
    for (const path of [other, 'ct_missing']) {
      const response = await api.put(book.id, path, { email: 'owner@example.com', firstName: 'Thief' });
      expect(response.statusCode, path).toBe(409);
      expect(errorOf(response)).toMatchObject({ code: 'NOT_UNIQUE', message: expect.stringContaining(owner) });
    }
    expect(await api.read(book.id, other)).toMatchObject({ email: 'other@example.com', firstName: 'Other' });
    expect((await api.read(book.id, owner)).firstName).toBeNull();
  });

  it('without an email: updates an existing contact by id, 404 when there is none', async () => {
    const id = await api.contact(book.id, { email: 'byid@example.com', firstName: 'A' });
    const response = await api.put(book.id, id, { lastName: 'Z', subscribed: false });
    expect(response.json()).toEqual({ contactId: id });
    expect(await api.read(book.id, id)).toMatchObject({
      email: 'byid@example.com',
      firstName: 'A',
      lastName: 'Z',
      subscribed: false,
    });
    const missing = await api.put(book.id, 'ct_missing', { firstName: 'X' });
    expect(missing.statusCode).toBe(404);
    expect(errorOf(missing).code).toBe('NOT_FOUND');
  });

  it('validates the email and the limits like create', async () => {
    const id = await api.contact(book.id, { email: 'valid@example.com' });
    expect((await api.put(book.id, id, { email: 'not-an-address' })).statusCode).toBe(400);
    expect((await api.put(book.id, id, { firstName: 'f'.repeat(201) })).statusCode).toBe(400);
    expect((await api.put('cb_missing', id, { firstName: 'x' })).statusCode).toBe(404);
  });
});

describe('bulk add', () => {
  const rows = (n: number, prefix: string) =>
    Array.from({ length: n }, (_, i) => ({ email: `${prefix}${i}@example.com`, firstName: `N${i}` }));

  it('adds 1,000 contacts in one request; 1,001 is 400 and stores nothing', async () => {
    const book = await api.book({ name: 'Bulk' });
    const tooMany = await api.bulkAdd(book.id, rows(1001, 'big'));
    expect(tooMany.statusCode).toBe(400);
    expect(errorOf(tooMany).message).toContain('1000');
    expect(await contactsOf(book.id)).toEqual([]);

    const response = await api.bulkAdd(book.id, rows(1000, 'big'));
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ message: expect.any(String), count: 1000 });
    expect((await api.getBook(book.id)).json()).toMatchObject({ _count: { contacts: 1000 } });
    // One request's new contacts are listed in the order they were given.
    expect((await contactsOf(book.id)).map((c) => c.email)).toEqual(rows(200, 'big').map((r) => r.email));
  });

  it('refuses an empty array', async () => {
    const book = await api.book();
    expect((await api.bulkAdd(book.id, [])).statusCode).toBe(400);
  });

  it('upserts by email: existing contacts keep their id and the fields left out', async () => {
    const book = await api.book();
    const id = await api.contact(book.id, {
      email: 'kept@example.com',
      firstName: 'Kept',
      lastName: 'Last',
      properties: { a: '1' },
    });
    const response = await api.bulkAdd(book.id, [
      { email: 'KEPT@example.com', lastName: 'Changed' },
      { email: 'new@example.com', properties: { b: '2' } },
      { email: 'dup@example.com', firstName: 'First' },
      { email: 'dup@example.com', lastName: 'Second' },
    ]);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ message: '2 contacts added, 1 updated', count: 3 });
    const stored = await contactsOf(book.id);
    expect(stored).toHaveLength(3);
    expect(stored.find((c) => c.email === 'kept@example.com')).toMatchObject({
      id,
      firstName: 'Kept',
      lastName: 'Changed',
      properties: { a: '1' },
    });
    expect(stored.find((c) => c.email === 'new@example.com')).toMatchObject({
      firstName: null,
      properties: { b: '2' },
      subscribed: true,
    });
    expect(stored.find((c) => c.email === 'dup@example.com')).toMatchObject({ firstName: 'First', lastName: 'Second' });
  });

  it('is all or nothing: one bad row refuses the request, naming it, and stores nothing', async () => {
    const book = await api.book();
    const existing = await api.contact(book.id, { email: 'before@example.com', firstName: 'Before' });
    const payload = [...rows(10, 'atomic'), { email: 'before@example.com', firstName: 'After' }, { email: 'broken' }];
    const response = await api.bulkAdd(book.id, payload);
    expect(response.statusCode).toBe(400);
    expect(errorOf(response).message).toContain('11');
    expect(errorOf(response).message).toContain('email');
    const stored = await contactsOf(book.id);
    expect(stored.map((c) => c.id)).toEqual([existing]);
    expect(stored[0]!.firstName).toBe('Before');
  });

  it('answers 404 for a missing book', async () => {
    expect((await api.bulkAdd('cb_missing', rows(1, 'x'))).statusCode).toBe(404);
  });
});

describe('bulk delete', () => {
  it('deletes the given contacts of the book and counts them; others are skipped', async () => {
    const book = await api.book();
    const otherBook = await api.book();
    const a = await api.contact(book.id, { email: 'a@example.com' });
    const b = await api.contact(book.id, { email: 'b@example.com' });
    const c = await api.contact(book.id, { email: 'c@example.com' });
    const elsewhere = await api.contact(otherBook.id, { email: 'a@example.com' });
    const response = await api.bulkDelete(book.id, { contactIds: [a, b, b, elsewhere, 'ct_missing'] });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ success: true, count: 2 });
    expect((await contactsOf(book.id)).map((x) => x.id)).toEqual([c]);
    expect((await api.get(otherBook.id, elsewhere)).statusCode).toBe(200);
  });

  it('takes 1 to 1,000 ids: 1,000 ok, 1,001 and 0 are 400', async () => {
    const book = await api.book();
    const ids = Array.from({ length: 1000 }, (_, i) => `ct_${i}`);
    expect((await api.bulkDelete(book.id, { contactIds: ids })).json()).toEqual({ success: true, count: 0 });
    const tooMany = await api.bulkDelete(book.id, { contactIds: [...ids, 'ct_x'] });
    expect(tooMany.statusCode).toBe(400);
    expect(errorOf(tooMany).message).toContain('contactIds');
    expect((await api.bulkDelete(book.id, { contactIds: [] })).statusCode).toBe(400);
    expect((await api.bulkDelete(book.id, {})).statusCode).toBe(400);
  });
});
