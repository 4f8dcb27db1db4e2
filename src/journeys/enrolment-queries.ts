// The statements of CONTACT_ADDED enrolment (journey_enrolments): the rows a contact write stores,
// and the queue's taking of one (enrolment-queue.ts).
import type { Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';
import { newId } from '../platform/ids.ts';

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
