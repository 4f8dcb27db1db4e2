// What contacts tell the areas built on them (journeys), which contacts cannot import (they import
// contacts; no area cycles). Those areas register their answers once at start (app.ts and worker.ts
// call registerContactHooks). Without a registration every answer is "nothing to do", "not in use".
import type { Transaction } from 'kysely';
import type { Db } from '../db/handle.ts';
import type { Database } from '../db/schema.ts';

/** Contacts that just became members of a book: created confirmed, or confirmed by double opt-in. */
export interface ContactsAdded {
  teamId: number;
  contactBookId: string;
  contactIds: readonly string[];
  now: Date;
}

/** Contacts that the caller's transaction unsubscribed or deleted. */
export interface ContactsLeft {
  teamId: number;
  contactIds: readonly string[];
  reason: 'unsubscribed' | 'deleted';
  now: Date;
}

export interface ContactHooks {
  /** Runs in the writer's transaction, so what it adds commits with the contacts or not at all. */
  contactsAdded(tx: Transaction<Database>, added: ContactsAdded): Promise<void>;
  /** Runs in the writer's transaction, after the contacts were changed or deleted (they are locked). */
  contactsLeft(tx: Transaction<Database>, left: ContactsLeft): Promise<void>;
  /** Why the book may not be deleted now (e.g. "an active journey uses it"), or null. */
  bookInUse(db: Db, teamId: number, contactBookId: string): Promise<string | null>;
  /** An address newly unsubscribed through the link of this email, in the writer's transaction. */
  unsubscribedByEmail?(tx: Transaction<Database>, teamId: number, emailId: string): Promise<void>;
}

const registered = new Set<ContactHooks>();

/** Idempotent: the same hooks registered twice run once. */
export function registerContactHooks(hooks: ContactHooks): void {
  registered.add(hooks);
}

export async function contactsAdded(tx: Transaction<Database>, added: ContactsAdded): Promise<void> {
  if (added.contactIds.length === 0) return;
  for (const hooks of registered) await hooks.contactsAdded(tx, added);
}

export async function contactsLeft(tx: Transaction<Database>, left: ContactsLeft): Promise<void> {
  if (left.contactIds.length === 0) return;
  for (const hooks of registered) await hooks.contactsLeft(tx, left);
}

export async function unsubscribedByEmail(tx: Transaction<Database>, teamId: number, emailId: string): Promise<void> {
  for (const hooks of registered) await hooks.unsubscribedByEmail?.(tx, teamId, emailId);
}

/** The first registered area's reason the book is in use, or null. */
export async function bookInUse(db: Db, teamId: number, contactBookId: string): Promise<string | null> {
  for (const hooks of registered) {
    const reason = await hooks.bookInUse(db, teamId, contactBookId);
    if (reason !== null) return reason;
  }
  return null;
}
