// SQL of journeys, team id first. Books, segments, contacts and emails are read through their
// areas' index.ts.
import { sql, type Selectable } from 'kysely';
import type { Db } from '../db/handle.ts';
import type { JourneysTable, JourneyStatus } from '../db/schema.ts';
import type { Step } from './schemas.ts';

export type JourneyRow = Selectable<JourneysTable>;

export interface JourneyValues {
  name: string;
  triggerType: JourneyRow['trigger_type'];
  contactBookId: string | null;
  segmentId: string | null;
  exitWhenLeavesSegment: boolean;
  steps: Step[];
}

export async function insertJourney(
  db: Db,
  teamId: number,
  id: string,
  values: JourneyValues,
  now: Date,
): Promise<JourneyRow> {
  return db
    .insertInto('journeys')
    .values({
      id,
      team_id: teamId,
      name: values.name,
      status: 'DRAFT',
      trigger_type: values.triggerType,
      contact_book_id: values.contactBookId,
      segment_id: values.segmentId,
      exit_when_leaves_segment: values.exitWhenLeavesSegment,
      steps: JSON.stringify(values.steps),
      created_at: now,
      updated_at: now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export function getJourney(db: Db, teamId: number, id: string): Promise<JourneyRow | undefined> {
  return db.selectFrom('journeys').selectAll().where('team_id', '=', teamId).where('id', '=', id).executeTakeFirst();
}

/** The journey, locked until the transaction ends: status changes, edits and enrolments take turns. */
export function lockJourney(db: Db, teamId: number, id: string): Promise<JourneyRow | undefined> {
  return db
    .selectFrom('journeys')
    .selectAll()
    .where('team_id', '=', teamId)
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst();
}

/** Share lock: enrolments of one journey run side by side, a status change waits for them. */
export function shareLockJourney(db: Db, teamId: number, id: string): Promise<JourneyRow | undefined> {
  return db
    .selectFrom('journeys')
    .selectAll()
    .where('team_id', '=', teamId)
    .where('id', '=', id)
    .forShare()
    .executeTakeFirst();
}

/** Contract: newest first. */
export function listJourneys(db: Db, teamId: number): Promise<JourneyRow[]> {
  return db
    .selectFrom('journeys')
    .selectAll()
    .where('team_id', '=', teamId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
}

export async function updateJourney(
  db: Db,
  teamId: number,
  id: string,
  values: Partial<JourneyValues> & { status?: JourneyStatus },
  now: Date,
): Promise<JourneyRow | undefined> {
  return db
    .updateTable('journeys')
    .set({
      ...(values.name !== undefined && { name: values.name }),
      ...(values.status !== undefined && { status: values.status }),
      ...(values.triggerType !== undefined && { trigger_type: values.triggerType }),
      ...(values.contactBookId !== undefined && { contact_book_id: values.contactBookId }),
      ...(values.segmentId !== undefined && { segment_id: values.segmentId }),
      ...(values.exitWhenLeavesSegment !== undefined && { exit_when_leaves_segment: values.exitWhenLeavesSegment }),
      ...(values.steps !== undefined && { steps: JSON.stringify(values.steps) }),
      updated_at: now,
    })
    .where('team_id', '=', teamId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
}

export async function deleteJourney(db: Db, teamId: number, id: string): Promise<boolean> {
  const result = await db.deleteFrom('journeys').where('team_id', '=', teamId).where('id', '=', id).executeTakeFirst();
  return result.numDeletedRows > 0n;
}

/** The name of an ACTIVE journey using the book, or undefined. */
export async function activeJourneyOfBook(db: Db, teamId: number, bookId: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('journeys')
    .select('name')
    .where('team_id', '=', teamId)
    .where('contact_book_id', '=', bookId)
    .where('status', '=', 'ACTIVE')
    .executeTakeFirst();
  return row?.name;
}

export async function activeJourneyOfSegment(db: Db, teamId: number, segmentId: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('journeys')
    .select('name')
    .where('team_id', '=', teamId)
    .where('segment_id', '=', segmentId)
    .where('status', '=', 'ACTIVE')
    .executeTakeFirst();
  return row?.name;
}

/** ACTIVE CONTACT_ADDED journeys of a book: who enrols a contact added to it. */
export function addedJourneysOfBook(db: Db, teamId: number, bookId: string): Promise<JourneyRow[]> {
  return db
    .selectFrom('journeys')
    .selectAll()
    .where('team_id', '=', teamId)
    .where('contact_book_id', '=', bookId)
    .where('status', '=', 'ACTIVE')
    .where('trigger_type', '=', 'CONTACT_ADDED')
    .execute();
}

/**
 * The runner's reads: journeys and contacts by (team, id) pairs, for runs of any team. The journeys
 * are KEY SHARE locked in id order before the batch locks its runs: batches run side by side, while
 * a status change or edit (FOR UPDATE) waits for them, or they for it, never both (run-queries.ts).
 */
export async function keyShareJourneysOf(
  db: Db,
  pairs: readonly { teamId: number; id: string }[],
): Promise<JourneyRow[]> {
  if (pairs.length === 0) return [];
  return db
    .selectFrom('journeys')
    .selectAll()
    .where(
      sql<boolean>`(team_id, id) IN (SELECT * FROM unnest(${pairs.map((p) => p.teamId)}::integer[], ${pairs.map((p) => p.id)}::text[]))`,
    )
    .orderBy('id')
    .forKeyShare()
    .execute();
}
