// POST /v1/campaigns/{id}/test: a copy of the campaign to each of up to 5 addresses, to see it as its
// recipients will, before it goes: MARKETING like the campaign's own (the unsubscribe link the
// copy's recipient's), "[Test]" before the subject and an X-Herald-Test header naming the campaign.
// A copy is not a campaign email: no campaign id, counted in no statistic, the transactional lane.
import type { Principal } from '../platform/auth/api-keys.ts';
import { badRequest, notFound } from '../platform/errors.ts';
import { queueEmails } from '../emails/index.ts';
import type { LifecycleDeps } from './lifecycle.ts';
import { scopeOf } from './lifecycle.ts';
import { campaignEmail } from './message.ts';
import { getCampaign } from './queries.ts';

export async function sendTestCopies(
  deps: LifecycleDeps,
  principal: Principal,
  id: string,
  to: readonly string[],
): Promise<string[]> {
  const campaign = await getCampaign(deps.db, scopeOf(principal), id);
  if (!campaign) throw notFound('Campaign');
  if (campaign.html === null && campaign.template_id === null)
    throw badRequest('html: the campaign has no body yet (html or templateId)');
  const now = deps.clock.now();
  const extra = { subject: `[Test] ${campaign.subject}`, headers: { 'X-Herald-Test': campaign.id } };
  return deps.db.transaction().execute((tx) =>
    queueEmails(
      tx,
      principal,
      to.map((address) =>
        campaignEmail(campaign, { email: address, first_name: null, last_name: null, properties: {} }, extra),
      ),
      { now, batch: true, marketing: true },
    ),
  );
}
