// The segments area as other areas use it (journeys, campaigns): a segment as one live query.
import { countSegment, readySegment, segmentQuery } from './evaluate.ts';

import { getSegmentWithBook } from './queries.ts';

export { bookOfSegment } from './queries.ts';
import { sql } from 'kysely';
import type { Db } from '../db/handle.ts';

export { segmentInUse } from './in-use.ts';
export { Definition as SegmentDefinition } from './definition.ts';

/**
 * The contacts a segment matches at `now`, as one query over `contacts AS c` (select the columns you
 * need, add ORDER BY/LIMIT, or use it as a subquery). Undefined when the team has no such segment;
 * a segment with problems gives a query that returns no row.
 */
export async function segmentContactsQuery(db: Db, teamId: number, segmentId: string, now: Date) {
  const found = await getSegmentWithBook(db, teamId, segmentId);
  if (!found) return undefined;
  return segmentQuery(db, readySegment(found.segment, found.variables), now);
}

/** How many contacts a segment matches at `now`; undefined when the team has no such segment. */
export async function countSegmentContacts(
  db: Db,
  teamId: number,
  segmentId: string,
  now: Date,
): Promise<number | undefined> {
  const found = await getSegmentWithBook(db, teamId, segmentId);
  if (!found) return undefined;
  return countSegment(db, readySegment(found.segment, found.variables), now);
}

/** Of these contacts, the ones the segment matches at `now`; undefined when the team has no such segment. */
export async function segmentContactIds(
  db: Db,
  teamId: number,
  segmentId: string,
  contactIds: readonly string[],
  now: Date,
): Promise<string[] | undefined> {
  const query = await segmentContactsQuery(db, teamId, segmentId, now);
  if (!query) return undefined;
  const rows = await query
    .select('c.id')
    .where(sql<boolean>`c.id = ANY (${[...contactIds]}::text[])`)
    .execute();
  return rows.map((row) => row.id);
}

/** Does the contact match the segment at `now`? (Journeys: enrolment and exit checks.) */
export async function contactInSegment(
  db: Db,
  teamId: number,
  segmentId: string,
  contactId: string,
  now: Date,
): Promise<boolean> {
  const query = await segmentContactsQuery(db, teamId, segmentId, now);
  if (!query) return false;
  return (await query.select('c.id').where('c.id', '=', contactId).executeTakeFirst()) !== undefined;
}
