// Statements over the contacts a stored segment matches: the compiled query (compile.ts) of the
// segment as it is now, read whole, counted, narrowed to some contacts or paged.
import { sql, type SqlBool } from 'kysely';
import type { Db } from '../db/handle.ts';
import { countSegment, readySegment, segmentQuery, type ReadySegment } from './evaluate.ts';
import { getSegmentWithBook } from './queries.ts';

/**
 * The contacts a segment matches at `now`, as one query over `contacts AS c` (select the columns you
 * need, add ORDER BY/LIMIT, or use it as a subquery). Undefined when the team has no such segment;
 * a segment with problems gives a query that returns no row.
 */
export async function segmentContactsQuery(db: Db, teamId: number, segmentId: string, now: Date) {
  const found = await getSegmentWithBook(db, teamId, segmentId);
  if (!found) return undefined;
  return segmentQuery(db, await readySegment(db, found.segment, found.variables), now);
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
  return countSegment(db, await readySegment(db, found.segment, found.variables), now);
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
