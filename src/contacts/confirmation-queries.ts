// Double opt-in confirmation writes. Tenant first.
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { contactsAdded } from './hooks.ts';

type ConfirmationState = 'missing' | 'pending' | 'confirmed';

export async function confirmationState(
  db: Kysely<Database>,
  teamId: number,
  contactId: string,
): Promise<ConfirmationState> {
  const row = await db
    .selectFrom('contacts')
    .select('confirmed_at')
    .where('team_id', '=', teamId)
    .where('id', '=', contactId)
    .executeTakeFirst();
  if (!row) return 'missing';
  return row.confirmed_at === null ? 'pending' : 'confirmed';
}

/**
 * Confirms a contact that has not confirmed yet: subscribed, confirmed now, no confirmation email
 * pending. A contact that already confirmed is left as it is (a later unsubscribe stands). The
 * contact joins its book here, so the areas that follow books (journeys) hear of it in the same
 * transaction.
 */
export async function confirmContact(
  db: Kysely<Database>,
  teamId: number,
  contactId: string,
  now: Date,
): Promise<ConfirmationState> {
  const confirmed = await db.transaction().execute(async (tx) => {
    const row = await tx
      .updateTable('contacts')
      .set({ confirmed_at: now, subscribed: true, unsubscribed_at: null, confirmation_due_at: null, updated_at: now })
      .where('team_id', '=', teamId)
      .where('id', '=', contactId)
      .where('confirmed_at', 'is', null)
      .returning('contact_book_id')
      .executeTakeFirst();
    if (row) await contactsAdded(tx, { teamId, contactBookId: row.contact_book_id, contactIds: [contactId], now });
    return row !== undefined;
  });
  if (confirmed) return 'confirmed';
  return confirmationState(db, teamId, contactId);
}
