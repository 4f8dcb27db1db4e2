// A stored segment, evaluated live: its problems, its count and its contacts, each read as one
// statement over the contacts as they are now.
import { sql, type SqlBool } from 'kysely';
import { countMatching, matchingContacts } from './compile.ts';

import { Definition } from './definition.ts';

import { referencesOfBook, segmentProblems } from './problems.ts';

import type { SegmentRow } from './queries.ts';
import type { Db } from '../db/handle.ts';

export interface ReadySegment {
  row: SegmentRow;
  definition: Definition;
  problems: string[];
}

/** Reads a stored definition and works out its problems against the book's variables now. */
export function readySegment(row: SegmentRow, variables: readonly string[]): ReadySegment {
  // Only definitions that passed this schema are stored; a later version must migrate stored ones.
  const definition = Definition.parse(row.definition);
  return { row, definition, problems: segmentProblems(definition, referencesOfBook(variables)) };
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

export interface SegmentContactRow {
  id: string;
  email: string;
  first_name: string | null;
  last_name: string | null;
  subscribed: boolean;
  properties: Record<string, unknown>;
  created_at: Date;
  updated_at: Date;
}

/** One page ordered by id, after the given id; limit + 1 rows so the caller knows whether more exist. */
export async function segmentContactsPage(
  db: Db,
  segment: ReadySegment,
  now: Date,
  afterId: string | null,
  limit: number,
): Promise<SegmentContactRow[]> {
  let query = segmentQuery(db, segment, now)
    .select([
      'c.id',
      'c.email',
      'c.first_name',
      'c.last_name',
      // Shown as the segment conditions read it: an unconfirmed double opt-in contact is not subscribed.
      sql<boolean>`(c.subscribed AND c.confirmed_at IS NOT NULL)`.as('subscribed'),
      sql<Record<string, unknown>>`c.properties`.as('properties'),
      'c.created_at',
      'c.updated_at',
    ])
    .orderBy('c.id', 'asc')
    .limit(limit + 1);
  if (afterId !== null) query = query.where(sql<SqlBool>`c.id > ${afterId}::text`);
  return query.execute();
}
