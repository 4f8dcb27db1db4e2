// campaign.started, campaign.paused and campaign.sent, recorded in the transaction that changes the
// campaign's status, with the campaign as it then stands.
import type { Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';
import { recordEvent } from '../webhooks/index.ts';
import { statsOf, type CampaignRow } from './queries.ts';

export async function recordCampaignEvent(
  tx: Transaction<Database>,
  type: 'campaign.started' | 'campaign.paused' | 'campaign.sent',
  campaign: CampaignRow,
  at: Date,
): Promise<void> {
  const total = (await statsOf(tx, campaign.team_id, [campaign.id])).get(campaign.id)?.total ?? 0;
  await recordEvent(tx, {
    teamId: campaign.team_id,
    type,
    domainId: campaign.domain_id,
    data: {
      campaignId: campaign.id,
      name: campaign.name,
      status: campaign.status as 'RUNNING' | 'PAUSED' | 'SENT',
      pausedReason: campaign.paused_reason,
      total,
      startedAt: campaign.started_at?.toISOString() ?? null,
      finishedAt: campaign.finished_at?.toISOString() ?? null,
    },
    at,
  });
}
