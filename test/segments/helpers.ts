// Segments through the real app, plus rows the conditions read (contacts, emails, events) inserted
// directly, so each test controls created_at, confirmation and activity exactly.
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database, EmailStatus } from '../../src/db/schema.ts';
import { newId } from '../../src/platform/ids.ts';
import { bearer } from '../support/factory.ts';

export type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';

export interface Segment {
  id: string;
  contactBookId: string;
  name: string;
  description: string | null;
  definition: { version: number; match: 'all' | 'any'; conditions: unknown[] };
  count: number;
  problems: string[];
  createdAt: string;
  updatedAt: string;
}

export interface SegmentContact {
  id: string;
  email: string;
  firstName: string | null;
  lastName: string | null;
  subscribed: boolean;
  properties: Record<string, unknown>;
  createdAt: string;
  updatedAt: string;
}

export const errorOf = (response: { json(): unknown }) =>
  (response.json() as { error: { code: string; message: string } }).error;

export const definition = (conditions: unknown[], match: 'all' | 'any' = 'all') => ({ version: 1, match, conditions });

export function segmentsClient(app: FastifyInstance, key: string) {
  const call = (method: Method, url: string, payload?: unknown) =>
    app.inject({
      method,
      url: `/api${url}`,
      headers: bearer(key),
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  const base = (bookId: string) => `/v1/contactBooks/${bookId}/segments`;
  const client = {
    call,
    /** A contact book made through the contacts API. */
    async makeBook(variables: string[] = []): Promise<string> {
      const response = await call('POST', '/v1/contactBooks', { name: 'Book', variables });
      if (response.statusCode !== 200) throw new Error(`create book: ${response.statusCode} ${response.body}`);
      return (response.json() as { id: string }).id;
    },
    async setVariables(bookId: string, variables: string[]): Promise<void> {
      const response = await call('PATCH', `/v1/contactBooks/${bookId}`, { variables });
      if (response.statusCode !== 200) throw new Error(`patch book: ${response.statusCode} ${response.body}`);
    },
    /** A contact added through the contacts API (created at the app's clock time). */
    async addContact(
      bookId: string,
      contact: {
        email: string;
        firstName?: string;
        lastName?: string;
        subscribed?: boolean;
        properties?: Record<string, string>;
      },
    ): Promise<string> {
      const response = await call('POST', `/v1/contactBooks/${bookId}/contacts`, contact);
      if (response.statusCode !== 200) throw new Error(`add contact: ${response.statusCode} ${response.body}`);
      return (response.json() as { contactId: string }).contactId;
    },
    list: (bookId: string) => call('GET', base(bookId)),
    create: (bookId: string, payload: unknown) => call('POST', base(bookId), payload),
    get: (bookId: string, id: string) => call('GET', `${base(bookId)}/${id}`),
    patch: (bookId: string, id: string, payload: unknown) => call('PATCH', `${base(bookId)}/${id}`, payload),
    remove: (bookId: string, id: string) => call('DELETE', `${base(bookId)}/${id}`),
    contacts: (bookId: string, id: string, query = '') => call('GET', `${base(bookId)}/${id}/contacts${query}`),
    /** Creates a segment; fails the test on anything but 201. */
    async make(bookId: string, def: unknown, name = `Segment ${newId()}`): Promise<Segment> {
      const response = await call('POST', base(bookId), { name, definition: def });
      if (response.statusCode !== 201) throw new Error(`create segment: ${response.statusCode} ${response.body}`);
      return response.json() as Segment;
    },
    /** Who a definition matches: the emails of every matching contact (sorted) and the count. Deletes the segment after. */
    async matches(bookId: string, def: unknown): Promise<string[]> {
      const segment = await client.make(bookId, def);
      const page = await call('GET', `${base(bookId)}/${segment.id}/contacts?limit=100`);
      if (page.statusCode !== 200) throw new Error(`segment contacts: ${page.statusCode} ${page.body}`);
      const body = page.json() as { data: SegmentContact[]; total: number };
      if (body.total !== segment.count || body.total !== body.data.length)
        throw new Error(`count ${segment.count}, total ${body.total}, rows ${body.data.length}`);
      await call('DELETE', `${base(bookId)}/${segment.id}`);
      return body.data.map((contact) => contact.email.split('@')[0]!).sort();
    },
  };
  return client;
}

export interface ContactSeed {
  email: string;
  firstName?: string | null;
  lastName?: string | null;
  subscribed?: boolean;
  /** null: an unconfirmed double opt-in contact. */
  confirmedAt?: string | null;
  properties?: Record<string, unknown>;
  createdAt?: string;
}

export async function insertContact(
  db: Kysely<Database>,
  teamId: number,
  bookId: string,
  seed: ContactSeed,
): Promise<string> {
  const createdAt = new Date(seed.createdAt ?? '2026-01-01T00:00:00.000Z');
  const id = newId('ct_', createdAt);
  await db
    .insertInto('contacts')
    .values({
      id,
      team_id: teamId,
      contact_book_id: bookId,
      email: seed.email,
      first_name: seed.firstName ?? null,
      last_name: seed.lastName ?? null,
      subscribed: seed.subscribed ?? true,
      confirmed_at: seed.confirmedAt === null ? null : new Date(seed.confirmedAt ?? createdAt),
      properties: JSON.stringify(seed.properties ?? {}),
      created_at: createdAt,
      updated_at: createdAt,
    })
    .execute();
  return id;
}

/** An email of the team to `address` with events at the given times. */
export async function insertEmail(
  db: Kysely<Database>,
  teamId: number,
  address: string,
  events: [EmailStatus, string][],
): Promise<string> {
  const id = newId('em_');
  const createdAt = new Date(events[0]?.[1] ?? '2026-01-01T00:00:00.000Z');
  await db
    .insertInto('emails')
    .values({
      id,
      team_id: teamId,
      from: 'news@example.test',
      to: JSON.stringify(address),
      subject: 'News',
      status: events.at(-1)?.[0] ?? 'QUEUED',
      run_at: createdAt,
      created_at: createdAt,
      updated_at: createdAt,
    })
    .execute();
  await db.insertInto('email_recipients').values({ team_id: teamId, address, email_id: id }).execute();
  for (const [status, at] of events) {
    await db
      .insertInto('email_events')
      .values({ team_id: teamId, email_id: id, status, data: null, created_at: new Date(at) })
      .execute();
  }
  return id;
}
