// The SQL of contact books (the contacts inside them: queries.ts); the team id comes first and is in
// every WHERE.
import { sql, type Selectable, type Transaction } from 'kysely';
import type { ContactBooksTable, Database } from '../db/schema.ts';
import type { Db } from '../db/handle.ts';

export type BookRow = Selectable<ContactBooksTable>;
export type BookWithCount = BookRow & { contact_count: number };

const json = (value: unknown) => (value === undefined ? undefined : JSON.stringify(value));

interface BookValues {
  name?: string;
  emoji?: string;
  properties?: Record<string, string>;
  variables?: string[];
  doubleOptInEnabled?: boolean;
  doubleOptInFrom?: string | null;
  doubleOptInSubject?: string | null;
  doubleOptInContent?: string | null;
}

function bookColumns(values: BookValues) {
  return {
    name: values.name,
    emoji: values.emoji,
    properties: json(values.properties),
    variables: json(values.variables),
    double_opt_in_enabled: values.doubleOptInEnabled,
    double_opt_in_from: values.doubleOptInFrom,
    double_opt_in_subject: values.doubleOptInSubject,
    double_opt_in_content: values.doubleOptInContent,
  };
}

function booksWithCount(db: Db, teamId: number) {
  return db
    .selectFrom('contact_books as b')
    .selectAll('b')
    .select((eb) =>
      eb
        .selectFrom('contacts as c')
        .select(sql<number>`count(*)::int`.as('n'))
        .whereRef('c.team_id', '=', 'b.team_id')
        .whereRef('c.contact_book_id', '=', 'b.id')
        .as('contact_count'),
    )
    .where('b.team_id', '=', teamId);
}

/** Oldest first. */
export async function listBooks(db: Db, teamId: number): Promise<BookWithCount[]> {
  const rows = await booksWithCount(db, teamId).orderBy('b.created_at').orderBy('b.id').execute();
  return rows.map((row) => ({ ...row, contact_count: Number(row.contact_count ?? 0) }));
}

export async function getBook(db: Db, teamId: number, bookId: string): Promise<BookWithCount | undefined> {
  const row = await booksWithCount(db, teamId).where('b.id', '=', bookId).executeTakeFirst();
  return row && { ...row, contact_count: Number(row.contact_count ?? 0) };
}

/** The book, share-locked until the transaction ends: it cannot be deleted or changed under a write of its contacts. */
export async function lockBook(
  tx: Transaction<Database>,
  teamId: number,
  bookId: string,
  mode: 'share' | 'update' = 'share',
): Promise<BookRow | undefined> {
  const query = tx.selectFrom('contact_books').selectAll().where('team_id', '=', teamId).where('id', '=', bookId);
  return (mode === 'share' ? query.forShare() : query.forUpdate()).executeTakeFirst();
}

export async function insertBook(
  db: Db,
  teamId: number,
  id: string,
  values: Required<Pick<BookValues, 'name' | 'emoji'>> & BookValues,
  now: Date,
): Promise<BookRow> {
  return db
    .insertInto('contact_books')
    .values({
      id,
      team_id: teamId,
      ...bookColumns(values),
      name: values.name,
      emoji: values.emoji,
      created_at: now,
      updated_at: now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function updateBook(
  db: Db,
  teamId: number,
  bookId: string,
  values: BookValues,
  now: Date,
): Promise<boolean> {
  const result = await db
    .updateTable('contact_books')
    .set({ ...bookColumns(values), updated_at: now })
    .where('team_id', '=', teamId)
    .where('id', '=', bookId)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/**
 * Deletes the book and its contacts (the contacts by their own statement rather than the foreign
 * key's cascade, so their ids can be handed to contactsLeft). Answers the deleted contacts' ids, or
 * undefined when the team has no such book. Run it in a transaction.
 */
export async function deleteBook(db: Db, teamId: number, bookId: string): Promise<string[] | undefined> {
  // The book first, as every contact write locks it (share) before its contacts.
  const book = await db
    .selectFrom('contact_books')
    .select('id')
    .where('team_id', '=', teamId)
    .where('id', '=', bookId)
    .forUpdate()
    .executeTakeFirst();
  if (!book) return undefined;
  const contacts = await db
    .deleteFrom('contacts')
    .where('team_id', '=', teamId)
    .where('contact_book_id', '=', bookId)
    .returning('id')
    .execute();
  const result = await db
    .deleteFrom('contact_books')
    .where('team_id', '=', teamId)
    .where('id', '=', bookId)
    .executeTakeFirst();
  return result.numDeletedRows > 0n ? contacts.map((row) => row.id) : undefined;
}
