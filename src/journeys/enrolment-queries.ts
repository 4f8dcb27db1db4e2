// The statements of CONTACT_ADDED enrolment (journey_enrolments): the rows a contact write stores,
// the queue's taking of one, and which of its contacts may still join (enrolment-queue.ts).
import { sql, type Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';
import { newId } from '../platform/ids.ts';
import { segmentContactsQuery } from '../segments/index.ts';

/** One row per followed journey, each holding the added contacts' ids. */
export async function insertEnrolments(
  tx: Transaction<Database>,
  teamId: number,
  journeyIds: string[],
  contactIds: readonly string[],
  now: Date,
): Promise<void> {
  await tx
    .insertInto('journey_enrolments')
    .values(
      journeyIds.map((journeyId) => ({
        id: newId('jenr_', now),
        team_id: teamId,
        journey_id: journeyId,
        contact_ids: [...contactIds],
        due_at: now,
        created_at: now,
      })),
    )
    .execute();
}

/** Deletes the row if it is still under this lease; false when another worker took it over. */
export async function takeEnrolment(
  tx: Transaction<Database>,
  teamId: number,
  enrolmentId: string,
  leaseUntil: Date,
): Promise<boolean> {
  const held = await tx
    .deleteFrom('journey_enrolments')
    .where('team_id', '=', teamId)
    .where('id', '=', enrolmentId)
    .where('lease_until', '=', leaseUntil)
    .returning('id')
    .executeTakeFirst();
  return held !== undefined;
}

/**
 * Those of `contactIds` that still exist in the journey's book and, for a journey limited to a
 * segment, match it now. The book's contacts are read here in one statement rather than through
 * the contacts area, as the segment's compiled query reads them too.
 */
export async function enrollableContacts(
  tx: Transaction<Database>,
  teamId: number,
  journey: { contact_book_id: string; segment_id: string | null },
  contactIds: readonly string[],
  now: Date,
): Promise<string[]> {
  if (journey.segment_id !== null) {
    const query = await segmentContactsQuery(tx, teamId, journey.segment_id, now);
    if (query === undefined) return [];
    const rows = await query
      .select('c.id')
      .where(sql<boolean>`c.id = ANY (${[...contactIds]}::text[])`)
      .execute();
    return rows.map((r) => r.id);
  }
  const { rows } = await sql<{ id: string }>`SELECT id FROM contacts
    WHERE team_id = ${teamId}::integer AND contact_book_id = ${journey.contact_book_id}::text
      AND id = ANY (${[...contactIds]}::text[])`.execute(tx);
  return rows.map((r) => r.id);
}
