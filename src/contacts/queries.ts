// The SQL of contacts within a book (the books themselves: book-queries.ts); the team id comes first
// and is in every WHERE.
import { sql, type Selectable, type Transaction } from 'kysely';
import type { ContactsTable, Database } from '../db/schema.ts';
import type { Db } from '../db/handle.ts';

export type ContactRow = Selectable<ContactsTable>;

const json = (value: unknown) => (value === undefined ? undefined : JSON.stringify(value));

interface ContactFilter {
  emails?: string[] | undefined;
  ids?: string[] | undefined;
  page: number;
  limit: number;
}

/** A book's contacts in id (creation) order, over the (team_id, contact_book_id, id) index. */
export async function listContacts(
  db: Db,
  teamId: number,
  bookId: string,
  filter: ContactFilter,
): Promise<ContactRow[]> {
  let query = db.selectFrom('contacts').selectAll().where('team_id', '=', teamId).where('contact_book_id', '=', bookId);
  // An empty parameter (`emails=`) filters nothing.
  if (filter.emails !== undefined && filter.emails.length > 0) query = query.where('email', 'in', filter.emails);
  if (filter.ids !== undefined && filter.ids.length > 0) query = query.where('id', 'in', filter.ids);
  return query
    .orderBy('id')
    .limit(filter.limit)
    .offset((filter.page - 1) * filter.limit)
    .execute();
}

export async function getContact(
  db: Db,
  teamId: number,
  bookId: string,
  contactId: string,
): Promise<ContactRow | undefined> {
  return db
    .selectFrom('contacts')
    .selectAll()
    .where('team_id', '=', teamId)
    .where('contact_book_id', '=', bookId)
    .where('id', '=', contactId)
    .executeTakeFirst();
}

/**
 * Contacts of a book with these addresses, locked for the rest of the transaction. One probe of the
 * (contact_book_id, email) key per address (LATERAL … LIMIT 1 keeps it a nested loop of equality
 * lookups whatever the statistics say; an `email IN (…)` list let the planner scan the whole team or
 * book when the table's statistics were older than the book). Locks are taken in sorted address
 * order, and the statement's text does not depend on how many addresses there are.
 */
export async function lockContactsByEmail(
  tx: Transaction<Database>,
  teamId: number,
  bookId: string,
  emails: string[],
): Promise<ContactRow[]> {
  if (emails.length === 0) return [];
  const sorted = [...emails].sort();
  const { rows } = await sql<ContactRow>`
    select c.* from unnest(${sorted}::text[]) as e(email)
    cross join lateral (
      select * from contacts
      where team_id = ${teamId} and contact_book_id = ${bookId} and email = e.email
      limit 1
      for update
    ) as c`.execute(tx);
  return rows;
}

export async function lockContact(
  tx: Transaction<Database>,
  teamId: number,
  bookId: string,
  contactId: string,
): Promise<ContactRow | undefined> {
  return tx
    .selectFrom('contacts')
    .selectAll()
    .where('team_id', '=', teamId)
    .where('contact_book_id', '=', bookId)
    .where('id', '=', contactId)
    .forUpdate()
    .executeTakeFirst();
}

export interface ContactRecord {
  id: string;
  email: string;
  firstName: string | null;
  lastName: string | null;
  subscribed: boolean;
  properties: Record<string, string>;
  confirmedAt: Date | null;
  confirmationDueAt: Date | null;
  createdAt: Date;
}

/**
 * Inserts the records, or updates the contact a record's email already has in the book (name,
 * subscription and properties; the id, creation and confirmation state stay). Returns how many of
 * each. One statement; records must have distinct emails. With 'fail' an existing email is a
 * unique violation instead.
 */
export async function upsertContacts(
  tx: Transaction<Database>,
  teamId: number,
  bookId: string,
  records: readonly ContactRecord[],
  now: Date,
  onExisting: 'update' | 'fail' = 'update',
): Promise<{ created: number; updated: number }> {
  if (records.length === 0) return { created: 0, updated: 0 };
  // The rows travel as one JSON array (jsonb_to_recordset): one parameter instead of twelve per row,
  // and the same statement text for any number of rows (prepared once per connection). Text columns
  // are made well-formed first, as the driver's UTF-8 encoding of a text parameter did (a lone
  // surrogate becomes U+FFFD; in JSON it would be an escape that jsonb refuses).
  const rowsJson = JSON.stringify(
    records.map((record) => ({
      id: record.id,
      email: record.email.toWellFormed(),
      first_name: record.firstName?.toWellFormed() ?? null,
      last_name: record.lastName?.toWellFormed() ?? null,
      subscribed: record.subscribed,
      properties: record.properties,
      confirmed_at: record.confirmedAt,
      confirmation_due_at: record.confirmationDueAt,
      created_at: record.createdAt,
    })),
  );
  // 'fail': a unique violation (23505) reaches the caller.
  const onConflict =
    onExisting === 'fail'
      ? sql``
      : sql`on conflict (contact_book_id, email) do update set
        first_name = excluded.first_name,
        last_name = excluded.last_name,
        subscribed = excluded.subscribed,
        properties = excluded.properties,
        updated_at = excluded.updated_at`;
  const { rows } = await sql<{ inserted: boolean }>`
    insert into contacts (id, team_id, contact_book_id, email, first_name, last_name, subscribed, properties, confirmed_at, confirmation_due_at, created_at, updated_at)
    select r.id, ${teamId}::integer, ${bookId}::text, r.email, r.first_name, r.last_name, r.subscribed, r.properties, r.confirmed_at, r.confirmation_due_at, r.created_at, ${now}::timestamptz
    from jsonb_to_recordset(${rowsJson}::jsonb) as r(
      id text, email text, first_name text, last_name text, subscribed boolean, properties jsonb,
      confirmed_at timestamptz, confirmation_due_at timestamptz, created_at timestamptz
    )
    ${onConflict}
    -- xmax is 0 on a row this statement inserted, set on one it updated.
    returning (xmax = 0) as inserted`.execute(tx);
  const created = rows.filter((row) => row.inserted).length;
  return { created, updated: rows.length - created };
}

interface ContactColumns {
  email?: string;
  firstName?: string | null;
  lastName?: string | null;
  subscribed?: boolean;
  properties?: Record<string, string>;
}

export async function updateContact(
  db: Db,
  teamId: number,
  bookId: string,
  contactId: string,
  changes: ContactColumns,
  now: Date,
): Promise<boolean> {
  const result = await db
    .updateTable('contacts')
    .set({
      email: changes.email,
      first_name: changes.firstName,
      last_name: changes.lastName,
      subscribed: changes.subscribed,
      properties: json(changes.properties),
      updated_at: now,
    })
    .where('team_id', '=', teamId)
    .where('contact_book_id', '=', bookId)
    .where('id', '=', contactId)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Answers the ids deleted (ids not of the book are skipped). */
export async function deleteContacts(db: Db, teamId: number, bookId: string, contactIds: string[]): Promise<string[]> {
  if (contactIds.length === 0) return [];
  const rows = await db
    .deleteFrom('contacts')
    .where('team_id', '=', teamId)
    .where('contact_book_id', '=', bookId)
    .where('id', 'in', contactIds)
    .returning('id')
    .execute();
  return rows.map((row) => row.id);
}
