// Every SQL statement of the segments area but the compiled definition (compile.ts); the team id
// comes first and is in every WHERE. Books are read through contacts (books.ts).
import type { Selectable } from 'kysely';
import type { SegmentsTable } from '../db/schema.ts';
import type { Db } from '../db/handle.ts';

export type SegmentRow = Selectable<SegmentsTable>;

interface SegmentWithBook {
  segment: SegmentRow;
  variables: string[];
}

export function variablesOf(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

/** The book a segment of the team belongs to, or undefined when the team has no such segment. */
export async function bookOfSegment(db: Db, teamId: number, segmentId: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('segments')
    .select('contact_book_id')
    .where('team_id', '=', teamId)
    .where('id', '=', segmentId)
    .executeTakeFirst();
  return row?.contact_book_id;
}

/** Oldest first; id breaks ties. */
export async function listSegments(db: Db, teamId: number, contactBookId: string): Promise<SegmentRow[]> {
  return db
    .selectFrom('segments')
    .selectAll()
    .where('team_id', '=', teamId)
    .where('contact_book_id', '=', contactBookId)
    .orderBy('created_at', 'asc')
    .orderBy('id', 'asc')
    .execute();
}

export async function getSegment(
  db: Db,
  teamId: number,
  contactBookId: string,
  segmentId: string,
): Promise<SegmentRow | undefined> {
  return db
    .selectFrom('segments')
    .selectAll()
    .where('team_id', '=', teamId)
    .where('contact_book_id', '=', contactBookId)
    .where('id', '=', segmentId)
    .executeTakeFirst();
}

/** A segment by id alone, with its book's variables (for other areas, which know only the segment id). */
export async function getSegmentWithBook(
  db: Db,
  teamId: number,
  segmentId: string,
): Promise<SegmentWithBook | undefined> {
  const row = await db
    .selectFrom('segments as s')
    .innerJoin('contact_books as b', (join) =>
      join.onRef('b.id', '=', 's.contact_book_id').onRef('b.team_id', '=', 's.team_id'),
    )
    .selectAll('s')
    .select('b.variables as book_variables')
    .where('s.team_id', '=', teamId)
    .where('s.id', '=', segmentId)
    .executeTakeFirst();
  if (!row) return undefined;
  const { book_variables, ...segment } = row;
  return { segment, variables: variablesOf(book_variables) };
}

export async function countSegments(db: Db, teamId: number, contactBookId: string): Promise<number> {
  const row = await db
    .selectFrom('segments')
    .select((eb) => eb.fn.countAll<string | number | bigint>().as('count'))
    .where('team_id', '=', teamId)
    .where('contact_book_id', '=', contactBookId)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** Is the name used by another segment of the book? */
export async function nameTaken(
  db: Db,
  teamId: number,
  contactBookId: string,
  name: string,
  exceptId: string | null,
): Promise<boolean> {
  let query = db
    .selectFrom('segments')
    .select('id')
    .where('team_id', '=', teamId)
    .where('contact_book_id', '=', contactBookId)
    .where('name', '=', name);
  if (exceptId !== null) query = query.where('id', '<>', exceptId);
  return (await query.executeTakeFirst()) !== undefined;
}

interface NewSegment {
  id: string;
  contactBookId: string;
  name: string;
  description: string | null;
  definition: unknown;
}

export async function insertSegment(db: Db, teamId: number, segment: NewSegment, now: Date): Promise<SegmentRow> {
  return db
    .insertInto('segments')
    .values({
      id: segment.id,
      team_id: teamId,
      contact_book_id: segment.contactBookId,
      name: segment.name,
      description: segment.description,
      definition: JSON.stringify(segment.definition),
      created_at: now,
      updated_at: now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

interface SegmentChanges {
  name?: string | undefined;
  description?: string | null | undefined;
  definition?: unknown;
}

export async function updateSegment(
  db: Db,
  teamId: number,
  contactBookId: string,
  segmentId: string,
  changes: SegmentChanges,
  now: Date,
): Promise<SegmentRow | undefined> {
  return db
    .updateTable('segments')
    .set({
      name: changes.name,
      description: changes.description,
      definition: changes.definition === undefined ? undefined : JSON.stringify(changes.definition),
      updated_at: now,
    })
    .where('team_id', '=', teamId)
    .where('contact_book_id', '=', contactBookId)
    .where('id', '=', segmentId)
    .returningAll()
    .executeTakeFirst();
}

export async function deleteSegment(
  db: Db,
  teamId: number,
  contactBookId: string,
  segmentId: string,
): Promise<boolean> {
  const result = await db
    .deleteFrom('segments')
    .where('team_id', '=', teamId)
    .where('contact_book_id', '=', contactBookId)
    .where('id', '=', segmentId)
    .executeTakeFirst();
  return result.numDeletedRows > 0n;
}

/** Which of `journeyIds` are journeys of the team. Segments read the journeys area's table, as the
 * compiled journey condition reads its runs (compile.ts): journeys import segments, not the reverse. */
export async function journeysOfTeam(db: Db, teamId: number, journeyIds: readonly string[]): Promise<Set<string>> {
  if (journeyIds.length === 0) return new Set();
  const rows = await db
    .selectFrom('journeys')
    .select('id')
    .where('team_id', '=', teamId)
    .where('id', 'in', [...journeyIds])
    .execute();
  return new Set(rows.map((row) => row.id));
}

/** The contact book of each of these campaigns of the team (campaigns area's rows, read by id). */
export async function campaignBooks(
  db: Db,
  teamId: number,
  campaignIds: readonly string[],
): Promise<Map<string, string>> {
  if (campaignIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('campaigns')
    .select(['id', 'contact_book_id'])
    .where('team_id', '=', teamId)
    .where('id', 'in', [...campaignIds])
    .execute();
  return new Map(rows.map((row) => [row.id, row.contact_book_id]));
}
