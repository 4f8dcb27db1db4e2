// A stored segment, evaluated live: its problems, and its count and its contacts each as one
// statement over the contacts as they are now (compile.ts; statements over them: matching-queries.ts).
import { countMatching, matchingContacts } from './compile.ts';

import { Definition } from './definition.ts';

import { campaignIdsOf, referencesOfBook, segmentProblems } from './problems.ts';

import { campaignBooks, type SegmentRow } from './queries.ts';
import type { Db } from '../db/handle.ts';

export interface ReadySegment {
  row: SegmentRow;
  definition: Definition;
  problems: string[];
}

/** Reads a stored definition and works out its problems against the book and its campaigns now. */
export async function readySegment(db: Db, row: SegmentRow, variables: readonly string[]): Promise<ReadySegment> {
  // Only definitions that passed this schema are stored; a later version must migrate stored ones.
  const definition = Definition.parse(row.definition);
  const named = [...campaignIdsOf(definition)];
  const books = await campaignBooks(db, row.team_id, named);
  const campaigns = new Set(named.filter((id) => books.get(id) === row.contact_book_id));
  return { row, definition, problems: segmentProblems(definition, referencesOfBook(variables, campaigns)) };
}

/**
 * A definition not stored (preview) as the row creating it would store, evaluated exactly as a
 * stored one: the same problems, count and contacts. Nothing is written.
 */
export function unsavedSegment(
  db: Db,
  teamId: number,
  book: { id: string; variables: readonly string[] },
  definition: Definition,
  now: Date,
): Promise<ReadySegment> {
  const row: SegmentRow = {
    id: '',
    team_id: teamId,
    contact_book_id: book.id,
    name: '',
    description: null,
    definition,
    created_at: now,
    updated_at: now,
  };
  return readySegment(db, row, book.variables);
}

/** Contract: count is 0 while the segment has problems. */
export function countSegment(db: Db, segment: ReadySegment, now: Date): Promise<number> {
  const { row } = segment;
  return countMatching(db, row.team_id, row.contact_book_id, segment.definition, now, segment.problems.length > 0);
}

/** The segment's contacts as one query; no row while it has problems. */
export function segmentQuery(db: Db, segment: ReadySegment, now: Date) {
  const { row } = segment;
  return matchingContacts(db, row.team_id, row.contact_book_id, segment.definition, now, segment.problems.length > 0);
}
