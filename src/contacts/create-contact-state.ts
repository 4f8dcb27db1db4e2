// The state a contact is created in. One decision, used by every path that creates contacts (single
// create, PUT-create, bulk add, CSV import), so the double opt-in helper can rely on it:
// - in a book with double opt-in on: not subscribed, not confirmed, the confirmation email due now,
//   and the `contact-confirmation` queue woken in the creating transaction;
// - in any other book: confirmed when created (confirmed_at = created_at), subscribed as asked.
import type { Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';
import { contactsAdded } from './hooks.ts';
import { notifyQueue } from '../queue/index.ts';

export const CONTACT_CONFIRMATION_QUEUE = 'contact-confirmation';

export interface ContactCreateState {
  subscribed: boolean;
  confirmedAt: Date | null;
  /** When the confirmation email is due; null when no confirmation is needed. */
  confirmationDueAt: Date | null;
}

interface BookOptInSetting {
  doubleOptInEnabled: boolean;
}

/**
 * A new contact's subscription and confirmation state. `requestedSubscribed` (the caller's
 * `subscribed`, default true) is ignored in a double opt-in book: the contact subscribes by
 * confirming.
 */
export function createContactState(
  book: BookOptInSetting,
  requestedSubscribed: boolean | undefined,
  now: Date,
): ContactCreateState {
  if (book.doubleOptInEnabled) return { subscribed: false, confirmedAt: null, confirmationDueAt: now };
  return { subscribed: requestedSubscribed ?? true, confirmedAt: now, confirmationDueAt: null };
}

/**
 * Call in the transaction that stored new contacts: wakes the confirmation sender when one is due,
 * and tells the areas that follow books (journeys) of the contacts created confirmed.
 */
export async function announceCreatedContacts(
  tx: Transaction<Database>,
  states: readonly (ContactCreateState & { id: string })[],
  book: { teamId: number; contactBookId: string; now: Date },
): Promise<void> {
  if (states.some((state) => state.confirmationDueAt !== null)) await notifyQueue(tx, CONTACT_CONFIRMATION_QUEUE);
  const confirmed = states.filter((state) => state.confirmedAt !== null).map((state) => state.id);
  await contactsAdded(tx, { ...book, contactIds: confirmed });
}
