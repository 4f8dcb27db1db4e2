// Writing contacts: single create, PUT upsert and bulk add (also the CSV import's path). Every write
// runs in one transaction that share-locks the book, so its double opt-in setting cannot change and
// the book cannot be deleted under it; new contacts take their state from createContactState.
// A write that unsubscribes a contact calls contactsLeft in its transaction (journey runs exit).
import type { Kysely, Transaction } from 'kysely';
import type { Clock } from '../platform/clock.ts';
import type { Database } from '../db/schema.ts';
import { ApiError, notFound } from '../platform/errors.ts';
import { newId } from '../platform/ids.ts';
import { announceCreatedContacts, createContactState } from './create-contact-state.ts';
import { lockBook, type BookRow } from './book-queries.ts';
import {
  deleteContacts,
  lockContact,
  lockContactsByEmail,
  updateContact,
  upsertContacts,
  type ContactRecord,
  type ContactRow,
} from './queries.ts';
import type { ContactChanges, ContactInput } from './schemas.ts';
import { isUniqueViolation } from '../db/errors.ts';
import { contactsLeft } from './hooks.ts';

interface WriteDeps {
  db: Kysely<Database>;
  clock: Clock;
}

const emailTaken = (email: string, ownerId: string) =>
  new ApiError(409, 'NOT_UNIQUE', `${email} already belongs to contact ${ownerId} of this book`);

async function inBook<T>(
  deps: WriteDeps,
  teamId: number,
  bookId: string,
  work: (tx: Transaction<Database>, book: BookRow) => Promise<T>,
): Promise<T> {
  return deps.db.transaction().execute(async (tx) => {
    const book = await lockBook(tx, teamId, bookId);
    if (!book) throw notFound('Contact book');
    return work(tx, book);
  });
}

function newRecord(book: BookRow, input: ContactInput, now: Date): ContactRecord {
  const state = createContactState({ doubleOptInEnabled: book.double_opt_in_enabled }, input.subscribed, now);
  return {
    id: newId('ct_', now),
    email: input.email,
    firstName: input.firstName ?? null,
    lastName: input.lastName ?? null,
    subscribed: state.subscribed,
    properties: input.properties ?? {},
    confirmedAt: state.confirmedAt,
    confirmationDueAt: state.confirmationDueAt,
    createdAt: now,
  };
}

/** An existing contact with the given fields applied; fields left out keep their value. */
function mergedRecord(existing: ContactRow, input: ContactChanges & { email?: string | undefined }): ContactRecord {
  return {
    id: existing.id,
    email: input.email ?? existing.email,
    firstName: input.firstName !== undefined ? input.firstName : existing.first_name,
    lastName: input.lastName !== undefined ? input.lastName : existing.last_name,
    subscribed: input.subscribed ?? existing.subscribed,
    properties: input.properties ?? existing.properties,
    confirmedAt: existing.confirmed_at,
    confirmationDueAt: existing.confirmation_due_at,
    createdAt: existing.created_at,
  };
}

/** POST .../contacts: a second contact with the same email in the book is 409 NOT_UNIQUE. */
export async function createContact(
  deps: WriteDeps,
  teamId: number,
  bookId: string,
  input: ContactInput,
): Promise<string> {
  try {
    return await inBook(deps, teamId, bookId, async (tx, book) => {
      const [existing] = await lockContactsByEmail(tx, teamId, bookId, [input.email]);
      if (existing) throw emailTaken(input.email, existing.id);
      const record = newRecord(book, input, deps.clock.now());
      await upsertContacts(tx, teamId, bookId, [record], record.createdAt, 'fail');
      await announceCreatedContacts(tx, [record], { teamId, contactBookId: bookId, now: record.createdAt });
      return record.id;
    });
  } catch (error) {
    if (isUniqueViolation(error))
      throw new ApiError(409, 'NOT_UNIQUE', `${input.email} is already a contact of this book`);
    throw error;
  }
}

/**
 * PUT .../contacts/{contactId} (contract upsert rules). With an email: the path id must be the
 * contact that email belongs to (update), or the email must be new to the book (the contact at the
 * path id takes it, or, when there is none, a new contact is created with a new id). Without an
 * email the contact must exist and is updated by id. Answers the contact's id.
 */
export async function upsertContact(
  deps: WriteDeps,
  teamId: number,
  bookId: string,
  contactId: string,
  input: ContactChanges & { email?: string | undefined },
): Promise<string> {
  try {
    return await inBook(deps, teamId, bookId, async (tx, book) => {
      const now = deps.clock.now();
      const atPath = await lockContact(tx, teamId, bookId, contactId);
      if (input.email !== undefined) {
        const [owner] = await lockContactsByEmail(tx, teamId, bookId, [input.email]);
        if (owner && owner.id !== contactId) throw emailTaken(input.email, owner.id);
        if (!atPath) {
          const record = newRecord(book, { ...input, email: input.email }, now);
          await upsertContacts(tx, teamId, bookId, [record], now, 'fail');
          await announceCreatedContacts(tx, [record], { teamId, contactBookId: bookId, now: record.createdAt });
          return record.id;
        }
      } else if (!atPath) {
        throw notFound('Contact');
      }
      await updateContact(tx, teamId, bookId, contactId, input, now);
      if (input.subscribed === false)
        await contactsLeft(tx, { teamId, contactIds: [contactId], reason: 'unsubscribed', now });
      return contactId;
    });
  } catch (error) {
    if (isUniqueViolation(error))
      throw new ApiError(409, 'NOT_UNIQUE', `${input.email ?? 'The address'} is already a contact of this book`);
    throw error;
  }
}

/** PATCH .../contacts/{contactId}: only the fields sent change. */
export async function patchContact(
  deps: WriteDeps,
  teamId: number,
  bookId: string,
  contactId: string,
  changes: ContactChanges,
): Promise<string> {
  await deps.db.transaction().execute(async (tx) => {
    const now = deps.clock.now();
    if (!(await updateContact(tx, teamId, bookId, contactId, changes, now))) throw notFound('Contact');
    // An unsubscribe ends the contact's journey runs now, in this transaction.
    if (changes.subscribed === false)
      await contactsLeft(tx, { teamId, contactIds: [contactId], reason: 'unsubscribed', now });
  });
  return contactId;
}

export interface AddResult {
  created: number;
  updated: number;
}

/**
 * Bulk add (and every batch of a CSV import): upserts by email in one transaction, all or nothing.
 * An address given twice is one contact, the later entry's fields over the earlier's. Existing
 * contacts keep their id and confirmation state; fields left out keep their value.
 */
export async function addContacts(
  deps: WriteDeps,
  teamId: number,
  bookId: string,
  inputs: readonly ContactInput[],
): Promise<AddResult> {
  const byEmail = new Map<string, ContactInput>();
  for (const input of inputs) {
    const earlier = byEmail.get(input.email);
    byEmail.set(input.email, earlier ? { ...earlier, ...definedFields(input) } : input);
  }
  return inBook(deps, teamId, bookId, async (tx, book) => {
    const now = deps.clock.now();
    const existing = new Map(
      (await lockContactsByEmail(tx, teamId, bookId, [...byEmail.keys()])).map((row) => [row.email, row]),
    );
    const records = [...byEmail.values()].map((input) => {
      const row = existing.get(input.email);
      return row ? mergedRecord(row, input) : newRecord(book, input, now);
    });
    // Ids of one millisecond sort randomly; hand them out sorted so list order is the input's order.
    const created = records.filter((record) => !existing.has(record.email));
    const ids = created.map((record) => record.id).sort();
    created.forEach((record, index) => (record.id = ids[index]!));
    const result = await upsertContacts(tx, teamId, bookId, records, now);
    await announceCreatedContacts(tx, created, { teamId, contactBookId: bookId, now });
    // Existing contacts this write unsubscribed leave their journeys now, in this transaction.
    const unsubscribed = records.filter((record) => existing.has(record.email) && !record.subscribed);
    await contactsLeft(tx, { teamId, contactIds: unsubscribed.map((r) => r.id), reason: 'unsubscribed', now });
    return result;
  });
}

function definedFields<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** Deletes contacts of the book (others skipped); their journey runs exit in the same transaction. */
export async function removeContacts(
  deps: WriteDeps,
  teamId: number,
  bookId: string,
  contactIds: string[],
): Promise<number> {
  return deps.db.transaction().execute(async (tx) => {
    const deleted = await deleteContacts(tx, teamId, bookId, contactIds);
    await contactsLeft(tx, { teamId, contactIds: deleted, reason: 'deleted', now: deps.clock.now() });
    return deleted.length;
  });
}
