// The statements of the double opt-in worker. Tenant first; the job's own writes match its lease, so a
// worker whose lease expired cannot overwrite the work of the one that took the contact over.
import type { Kysely, Selectable } from 'kysely';
import type { ContactBooksTable, ContactsTable, Database } from '../db/schema.ts';

export type ContactRow = Selectable<ContactsTable>;

export type ConfirmationBook = Pick<
  Selectable<ContactBooksTable>,
  'id' | 'double_opt_in_enabled' | 'double_opt_in_from' | 'double_opt_in_subject' | 'double_opt_in_content'
>;

export async function getBookForConfirmation(
  db: Kysely<Database>,
  teamId: number,
  bookId: string,
): Promise<ConfirmationBook | undefined> {
  return db
    .selectFrom('contact_books')
    .select(['id', 'double_opt_in_enabled', 'double_opt_in_from', 'double_opt_in_subject', 'double_opt_in_content'])
    .where('team_id', '=', teamId)
    .where('id', '=', bookId)
    .executeTakeFirst();
}

/** The confirmation email is queued: nothing is due any more. */
export async function markConfirmationSent(
  db: Kysely<Database>,
  teamId: number,
  contactId: string,
  leaseUntil: Date,
  now: Date,
): Promise<boolean> {
  const result = await db
    .updateTable('contacts')
    .set({ confirmation_sent_at: now, confirmation_due_at: null })
    .where('team_id', '=', teamId)
    .where('id', '=', contactId)
    .where('confirmation_lease_until', '=', leaseUntil)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Jobs given up: the contacts stay unconfirmed with nothing due. */
export async function dropConfirmations(db: Kysely<Database>, contactIds: string[], leaseUntil: Date): Promise<void> {
  if (contactIds.length === 0) return;
  await db
    .updateTable('contacts')
    .set({ confirmation_due_at: null, confirmation_lease_until: null })
    .where('id', 'in', contactIds)
    .where('confirmation_lease_until', '=', leaseUntil)
    .execute();
}
