// What journeys answer to contacts and segments through platform/contact-hooks.ts: CONTACT_ADDED
// enrolment recorded in the transaction that adds the contacts (enrolment-queue.ts), the exits of
// contacts unsubscribed or deleted (exits.ts), and the book and segment protections.
import type { ContactHooks } from '../platform/contact-hooks.ts';
import { recordAddedContacts } from './enrolment-queue.ts';
import { exitRunsOfContacts } from './exits.ts';
import { activeJourneyOfBook, activeJourneyOfSegment } from './queries.ts';

export const journeyContactHooks: ContactHooks = {
  contactsAdded: recordAddedContacts,
  contactsLeft: exitRunsOfContacts,
  async bookInUse(db, teamId, bookId) {
    const name = await activeJourneyOfBook(db, teamId, bookId);
    return name === undefined ? null : `the active journey "${name}" uses it`;
  },
  async segmentInUse(db, teamId, segmentId) {
    const name = await activeJourneyOfSegment(db, teamId, segmentId);
    return name === undefined ? null : `the active journey "${name}" uses it`;
  },
};
