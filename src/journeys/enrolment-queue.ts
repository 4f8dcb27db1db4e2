// CONTACT_ADDED enrolment. The write that adds contacts to a followed book stores one
// journey_enrolments row per ACTIVE CONTACT_ADDED journey of the book (its contact ids) in its own
// transaction, so no addition is lost and a bulk add of 1,000 pays for one row, not 1,000 runs
// (bench/RESULTS.md). This queue turns each row into runs: the contacts that still exist and, for a
// journey limited to a segment, match it now; contacts already on the journey are skipped. The row
// is deleted in the transaction that makes the runs. A journey archived meanwhile enrols nobody.
import type { Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';
import { contactIdsInBook, type ContactsAdded } from '../contacts/index.ts';
import { defineQueue, notifyQueue, type BatchContext, type Queue } from '../queue/index.ts';
import { segmentContactIds } from '../segments/index.ts';
import { JOURNEY_RUNS_QUEUE } from './enroll.ts';
import { insertEnrolments, takeEnrolment } from './enrolment-queries.ts';
import { addedJourneysOfBook, shareLockJourney } from './queries.ts';
import { bumpCounters, enrollContacts } from './run-queries.ts';

export const JOURNEY_ENROLMENTS_QUEUE = 'journey-enrolments';

interface EnrolmentRow {
  id: string;
  team_id: number;
  journey_id: string;
  contact_ids: string[];
}

/** The contact hook: in the writer's transaction, one row per followed journey. */
export async function recordAddedContacts(tx: Transaction<Database>, added: ContactsAdded): Promise<void> {
  const { teamId, contactBookId, contactIds, now } = added;
  const journeys = await addedJourneysOfBook(tx, teamId, contactBookId);
  if (journeys.length === 0) return;
  await insertEnrolments(
    tx,
    teamId,
    journeys.map((journey) => journey.id),
    contactIds,
    now,
  );
  await notifyQueue(tx, JOURNEY_ENROLMENTS_QUEUE);
}

/** Those of `contactIds` still in the journey's book and, for a journey limited to a segment, matching it now. */
async function enrollableContacts(
  tx: Transaction<Database>,
  teamId: number,
  journey: { contact_book_id: string; segment_id: string | null },
  contactIds: readonly string[],
  now: Date,
): Promise<string[]> {
  if (journey.segment_id === null) return contactIdsInBook(tx, teamId, journey.contact_book_id, contactIds);
  return (await segmentContactIds(tx, teamId, journey.segment_id, contactIds, now)) ?? [];
}

async function enrol(row: EnrolmentRow, ctx: BatchContext): Promise<void> {
  const now = ctx.clock.now();
  await ctx.db.transaction().execute(async (tx) => {
    if (!(await takeEnrolment(tx, row.team_id, row.id, ctx.leaseUntil))) return; // another worker took it over
    // Shared, as the API's enrolment: an archive commits before or after this, not in between.
    const journey = await shareLockJourney(tx, row.team_id, row.journey_id);
    if (!journey || journey.status === 'ARCHIVED' || journey.contact_book_id === null) return;
    const ids = await enrollableContacts(
      tx,
      row.team_id,
      { contact_book_id: journey.contact_book_id, segment_id: journey.segment_id },
      row.contact_ids,
      now,
    );
    const count = await enrollContacts(tx, row.team_id, journey.id, ids, now);
    if (count === 0) return;
    await bumpCounters(tx, row.team_id, journey.id, { enrolled: count, active: count });
    await notifyQueue(tx, JOURNEY_RUNS_QUEUE);
  });
}

export function journeyEnrolmentsQueue(): Queue {
  return defineQueue<EnrolmentRow>({
    name: JOURNEY_ENROLMENTS_QUEUE,
    table: 'journey_enrolments',
    idType: 'text',
    dueColumn: 'due_at',
    leaseColumn: 'lease_until',
    attemptsColumn: 'attempts',
    batchSize: 10,
    leaseMs: 2 * 60_000,
    maxAttempts: 20,
    backoff: { baseMs: 5_000, maxMs: 10 * 60_000 },
    handleRow: enrol,
    // The handler deleted the row with its runs: nothing is left to write back. (The default statement
    // would match no row and count it as a lease lost, with a false warning per enrolment.) For a
    // retry the default statement moves the row on.
    onDone: async () => {},
    onFailed: async (items, ctx) => {
      for (const item of items)
        ctx.logger.error({ enrolmentId: item.row.id, error: item.error }, 'journey enrolment gave up');
    },
  });
}
