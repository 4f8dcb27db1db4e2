// The book a segment belongs to, read through the contacts area: its id and its variables (the keys
// a property condition may name).
import type { Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { Db } from '../db/handle.ts';
import { bookFacts, lockBookFacts, type BookFacts } from '../contacts/index.ts';
import { variablesOf } from './queries.ts';

export interface BookRow {
  id: string;
  variables: string[];
}

const bookRow = (facts: BookFacts | undefined): BookRow | undefined =>
  facts && { id: facts.id, variables: variablesOf(facts.variables) };

export async function getBook(db: Db, teamId: number, contactBookId: string): Promise<BookRow | undefined> {
  return bookRow(await bookFacts(db, teamId, contactBookId));
}

/** The book, locked until the transaction ends: segment writes of one book take turns (count and name rules). */
export async function lockBook(
  tx: Transaction<Database>,
  teamId: number,
  contactBookId: string,
): Promise<BookRow | undefined> {
  return bookRow(await lockBookFacts(tx, teamId, contactBookId));
}
