// What journeys answer to contacts (contacts/hooks.ts) and segments (segments/hooks.ts): CONTACT_ADDED
// enrolment recorded in the transaction that adds the contacts (enrolment-queue.ts), the exits of
// contacts unsubscribed or deleted (exits.ts), and the book and segment protections.
import type { ContactHooks } from '../contacts/index.ts';
import type { SegmentHooks } from '../segments/index.ts';
import { recordAddedContacts } from './enrolment-queue.ts';
import { exitRunsOfContacts } from './exits.ts';
import { activeJourneyOfBook, activeJourneyOfSegment } from './queries.ts';

const usedBy = (name: string | undefined) => (name === undefined ? null : `the active journey "${name}" uses it`);

export const journeyContactHooks: ContactHooks = {
  contactsAdded: recordAddedContacts,
  contactsLeft: exitRunsOfContacts,
  bookInUse: async (db, teamId, bookId) => usedBy(await activeJourneyOfBook(db, teamId, bookId)),
};

export const journeySegmentHooks: SegmentHooks = {
  segmentInUse: async (db, teamId, segmentId) => usedBy(await activeJourneyOfSegment(db, teamId, segmentId)),
};
