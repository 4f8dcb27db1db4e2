// What campaigns answer to contacts and segments (contract: a book, or a segment's definition, used
// by a SCHEDULED or RUNNING campaign stays as it is: 400).
import type { ContactHooks } from '../contacts/index.ts';
import type { SegmentHooks } from '../segments/index.ts';
import { liveCampaignOfBook, liveCampaignOfSegment } from './queries.ts';

const usedBy = (name: string | undefined) =>
  name === undefined ? null : `the scheduled or running campaign "${name}" uses it`;

export const campaignContactHooks: ContactHooks = {
  contactsAdded: async () => {},
  contactsLeft: async () => {},
  bookInUse: async (db, teamId, bookId) => usedBy(await liveCampaignOfBook(db, teamId, bookId)),
};

export const campaignSegmentHooks: SegmentHooks = {
  segmentInUse: async (db, teamId, segmentId) => usedBy(await liveCampaignOfSegment(db, teamId, segmentId)),
};
