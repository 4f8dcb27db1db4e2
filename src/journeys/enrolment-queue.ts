// CONTACT_ADDED enrolment. The write that adds contacts to a followed book stores one
// journey_enrolments row per ACTIVE CONTACT_ADDED journey of the book (its contact ids) in its own
// transaction, so no addition is lost and a bulk add of 1,000 pays for one row, not 1,000 runs
// (bench/RESULTS.md). This queue turns each row into runs: the contacts that still exist and, for a
// journey limited to a segment, match it now; contacts already on the journey are skipped. The row
// is deleted in the transaction that makes the runs. A journey archived meanwhile enrols nobody.
import { sql, type Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { ContactsAdded } from '../platform/contact-hooks.ts';
import { newId } from '../platform/ids.ts';
import { defineQueue, notifyQueue, type BatchContext, type Queue } from '../queue/index.ts';
import { segmentContactsQuery } from '../segments/index.ts';
import { JOURNEY_RUNS_QUEUE } from './enroll.ts';
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
  await tx
    .insertInto('journey_enrolments')
    .values(
      journeys.map((journey) => ({
        id: newId('jenr_', now),
        team_id: teamId,
        journey_id: journey.id,
        contact_ids: [...contactIds],
        due_at: now,
        created_at: now,
      })),
    )
    .execute();
  await notifyQueue(tx, JOURNEY_ENROLMENTS_QUEUE);
}

async function enrol(row: EnrolmentRow, ctx: BatchContext): Promise<void> {
  const now = ctx.clock.now();
  await ctx.db.transaction().execute(async (tx) => {
    const held = await tx
      .deleteFrom('journey_enrolments')
      .where('id', '=', row.id)
      .where('lease_until', '=', ctx.leaseUntil)
      .returning('id')
      .executeTakeFirst();
    if (!held) return; // another worker took it over
    // Shared, as the API's enrolment: an archive commits before or after this, not in between.
    const journey = await shareLockJourney(tx, row.team_id, row.journey_id);
    if (!journey || journey.status === 'ARCHIVED' || journey.contact_book_id === null) return;
    let ids: string[];
    if (journey.segment_id !== null) {
      const query = await segmentContactsQuery(tx, row.team_id, journey.segment_id, now);
      ids =
        query === undefined
          ? []
          : (
              await query
                .select('c.id')
                .where(sql<boolean>`c.id = ANY (${row.contact_ids}::text[])`)
                .execute()
            ).map((r) => r.id);
    } else {
      const { rows } = await sql<{ id: string }>`SELECT id FROM contacts
        WHERE team_id = ${row.team_id}::integer AND contact_book_id = ${journey.contact_book_id}::text
          AND id = ANY (${row.contact_ids}::text[])`.execute(tx);
      ids = rows.map((r) => r.id);
    }
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
