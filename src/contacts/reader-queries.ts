// The reads other areas make of books and contacts (journeys, segments), through index.ts. The team
// id comes first and is in every WHERE, but for contactsOf, whose pairs carry their teams.
import { sql } from 'kysely';
import type { Db } from '../db/handle.ts';

/** A book as other areas need it: does it exist, does it confirm by double opt-in, its variables (JSON). */
export interface BookFacts {
  id: string;
  double_opt_in_enabled: boolean;
  variables: unknown;
}

const bookQuery = (db: Db, teamId: number, bookId: string) =>
  db
    .selectFrom('contact_books')
    .select(['id', 'double_opt_in_enabled', 'variables'])
    .where('team_id', '=', teamId)
    .where('id', '=', bookId);

export function bookFacts(db: Db, teamId: number, bookId: string): Promise<BookFacts | undefined> {
  return bookQuery(db, teamId, bookId).executeTakeFirst();
}

/** The book, locked FOR UPDATE until the transaction ends (segment writes of one book take turns). */
export function lockBookFacts(tx: Db, teamId: number, bookId: string): Promise<BookFacts | undefined> {
  return bookQuery(tx, teamId, bookId).forUpdate().executeTakeFirst();
}

export interface ContactFacts {
  id: string;
  contact_book_id: string;
  email: string;
  first_name: string | null;
  last_name: string | null;
  subscribed: boolean;
  confirmed_at: Date | null;
  properties: Record<string, string>;
}

const contactColumns = [
  'id',
  'contact_book_id',
  'email',
  'first_name',
  'last_name',
  'subscribed',
  'confirmed_at',
  'properties',
] as const;

export function contactById(db: Db, teamId: number, contactId: string): Promise<ContactFacts | undefined> {
  return db
    .selectFrom('contacts')
    .select(contactColumns)
    .where('team_id', '=', teamId)
    .where('id', '=', contactId)
    .executeTakeFirst();
}

export function contactByEmail(
  db: Db,
  teamId: number,
  bookId: string,
  email: string,
): Promise<ContactFacts | undefined> {
  return db
    .selectFrom('contacts')
    .select(contactColumns)
    .where('team_id', '=', teamId)
    .where('contact_book_id', '=', bookId)
    .where('email', '=', email)
    .executeTakeFirst();
}

/** Those of these contacts that are still in the book. */
export async function contactIdsInBook(
  db: Db,
  teamId: number,
  bookId: string,
  contactIds: readonly string[],
): Promise<string[]> {
  if (contactIds.length === 0) return [];
  const rows = await db
    .selectFrom('contacts')
    .select('id')
    .where('team_id', '=', teamId)
    .where('contact_book_id', '=', bookId)
    .where(sql<boolean>`id = ANY (${[...contactIds]}::text[])`)
    .execute();
  return rows.map((row) => row.id);
}

/** Contacts by (team, id) pairs, of any team, in one statement (the journey runner's batch). */
export async function contactsOf(
  db: Db,
  pairs: readonly { teamId: number; id: string }[],
): Promise<(ContactFacts & { team_id: number })[]> {
  if (pairs.length === 0) return [];
  return db
    .selectFrom('contacts')
    .select([...contactColumns, 'team_id'])
    .where(
      sql<boolean>`(team_id, id) IN (SELECT * FROM unnest(${pairs.map((p) => p.teamId)}::integer[], ${pairs.map((p) => p.id)}::text[]))`,
    )
    .execute();
}

/** Each sender's contact in one of the team's books (the oldest, if several books hold the address). */
export async function contactIdsByEmail(db: Db, teamId: number, emails: string[]): Promise<Map<string, string>> {
  if (emails.length === 0) return new Map();
  const { rows } = await sql<{ email: string; id: string }>`
    SELECT DISTINCT ON (email) email, id FROM contacts WHERE team_id = ${teamId}::int AND email = ANY(${emails}::text[])
    ORDER BY email, created_at, id`.execute(db);
  return new Map(rows.map((row) => [row.email, row.id]));
}

/**
 * The contacts of a book marketing may reach now (a campaign's audience): subscribed and, in a book
 * that confirms by double opt-in, confirmed. A query over `contacts AS c` to select from.
 */
export function mailableContactsQuery(db: Db, teamId: number, bookId: string, doubleOptIn: boolean) {
  const query = db
    .selectFrom('contacts as c')
    .where('c.team_id', '=', teamId)
    .where('c.contact_book_id', '=', bookId)
    .where('c.subscribed', '=', true);
  return doubleOptIn ? query.where('c.confirmed_at', 'is not', null) : query;
}
