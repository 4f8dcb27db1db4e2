// What campaigns answer to contacts and segments: an unsubscribe through a campaign email's link (its
// `unsubscribed`), and the contract's protections (a book, or a segment's definition, used
// by a SCHEDULED or RUNNING campaign stays as it is: 400).
import type { ContactHooks } from '../contacts/index.ts';
import { campaignOfEmail } from '../emails/index.ts';
import type { SegmentHooks } from '../segments/index.ts';
import { addUnsubscribed, liveCampaignOfBook, liveCampaignOfSegment } from './queries.ts';

const usedBy = (name: string | undefined) =>
  name === undefined ? null : `the scheduled or running campaign "${name}" uses it`;

export const campaignContactHooks: ContactHooks = {
  contactsAdded: async () => {},
  contactsLeft: async () => {},
  bookInUse: async (db, teamId, bookId) => usedBy(await liveCampaignOfBook(db, teamId, bookId)),
  // Issue: an unsubscribe from a campaign email adds one to the campaign's `unsubscribed`.
  unsubscribedByEmail: async (tx, teamId, emailId) => {
    const campaignId = await campaignOfEmail(tx, teamId, emailId);
    if (campaignId !== null) await addUnsubscribed(tx, teamId, campaignId);
  },
};

export const campaignSegmentHooks: SegmentHooks = {
  segmentInUse: async (db, teamId, segmentId) => usedBy(await liveCampaignOfSegment(db, teamId, segmentId)),
};
