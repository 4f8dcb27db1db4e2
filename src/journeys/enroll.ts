// POST /v1/journeys/{id}/enroll (contract: Endpoints › Journeys): the rules in the order a caller
// meets them. By email, the contact is found in the journey's book or added to it first (in its own
// transaction: the address stays in the book even when the enrolment is then refused).
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { Clock } from '../platform/clock.ts';
import { addContacts, bookFacts, contactByEmail, contactById, type ContactFacts } from '../contacts/index.ts';
import { ApiError, badRequest, notFound } from '../platform/errors.ts';
import { notifyQueue } from '../queue/index.ts';
import { bookOfSegment, contactInSegment } from '../segments/index.ts';
import { getJourney, shareLockJourney, type JourneyRow } from './queries.ts';
import { bumpCounters, getRunOfContact, insertRuns, type RunRow } from './run-queries.ts';

export const JOURNEY_RUNS_QUEUE = 'journey-runs';

interface EnrollDeps {
  db: Kysely<Database>;
  clock: Clock;
}

export interface EnrollInput {
  contactId?: string | undefined;
  email?: string | undefined;
}

const refusedStatus = (journey: JourneyRow) =>
  journey.status === 'DRAFT' || journey.status === 'ARCHIVED'
    ? badRequest(`the journey is ${journey.status}: only an ACTIVE or PAUSED journey enrols contacts`)
    : null;

/** The contact to enrol, and whether this request added it to the book. */
async function contactToEnroll(
  deps: EnrollDeps,
  teamId: number,
  journey: JourneyRow,
  input: EnrollInput,
): Promise<{ contact: ContactFacts; added: boolean }> {
  const bookId = journey.contact_book_id;
  if (input.email !== undefined) {
    if (bookId === null) throw badRequest('email: the journey has no contact book to find or add the contact in');
    if (!(await bookFacts(deps.db, teamId, bookId)))
      throw badRequest(`the journey's contact book ${bookId} no longer exists`);
    const found = await contactByEmail(deps.db, teamId, bookId, input.email);
    if (found) return { contact: found, added: false };
    await addContacts(deps, teamId, bookId, [{ email: input.email }]);
    const added = await contactByEmail(deps.db, teamId, bookId, input.email);
    if (!added) throw new Error('a contact added for an enrolment was not found');
    return { contact: added, added: true };
  }
  const contact = await contactById(deps.db, teamId, input.contactId!);
  if (!contact) throw badRequest(`contactId: the team has no contact ${input.contactId}`);
  if (bookId !== null) {
    if (!(await bookFacts(deps.db, teamId, bookId)))
      throw badRequest(`the journey's contact book ${bookId} no longer exists`);
    if (contact.contact_book_id !== bookId)
      throw badRequest(`contactId: contact ${contact.id} is not in the journey's contact book ${bookId}`);
  }
  return { contact, added: false };
}

export async function enroll(deps: EnrollDeps, teamId: number, journeyId: string, input: EnrollInput): Promise<RunRow> {
  if ((input.contactId === undefined) === (input.email === undefined))
    throw badRequest('body: give contactId or email, one of them and not both');
  const journey = await getJourney(deps.db, teamId, journeyId);
  if (!journey) throw notFound('Journey');
  const refused = refusedStatus(journey);
  if (refused) throw refused;
  const { contact, added } = await contactToEnroll(deps, teamId, journey, input);
  const book = await bookFacts(deps.db, teamId, contact.contact_book_id);
  if (book?.double_opt_in_enabled && contact.confirmed_at === null)
    throw badRequest(`contact ${contact.id} has not confirmed its subscription (the contact book uses double opt-in)`);

  return deps.db.transaction().execute(async (tx) => {
    const now = deps.clock.now();
    // Shared: enrolments side by side; a status change (archive) waits for them and sees their runs.
    const current = await shareLockJourney(tx, teamId, journeyId);
    if (!current) throw notFound('Journey');
    const refusedNow = refusedStatus(current);
    if (refusedNow) throw refusedNow;
    const existing = await getRunOfContact(tx, teamId, journeyId, contact.id);
    if (existing) {
      // A CONTACT_ADDED journey enrolled the contact this request added: that run is this enrolment.
      if (added) return existing;
      throw new ApiError(409, 'NOT_UNIQUE', `contact ${contact.id} already has a run on this journey (${existing.id})`);
    }
    if (current.segment_id !== null) {
      if ((await bookOfSegment(tx, teamId, current.segment_id)) === undefined)
        throw badRequest(`the journey's segment ${current.segment_id} no longer exists`);
      if (!(await contactInSegment(tx, teamId, current.segment_id, contact.id, now)))
        throw new ApiError(
          409,
          'NOT_IN_SEGMENT',
          `contact ${contact.id} does not match the journey's segment ${current.segment_id}`,
        );
    }
    const [run] = await insertRuns(tx, teamId, journeyId, [contact.id], now);
    if (!run) throw new ApiError(409, 'NOT_UNIQUE', `contact ${contact.id} already has a run on this journey`);
    await bumpCounters(tx, teamId, journeyId, { enrolled: 1, active: 1 });
    if (current.status === 'ACTIVE') await notifyQueue(tx, JOURNEY_RUNS_QUEUE);
    return run;
  });
}
