// The fan-out: the `campaign-fanout` queue over the campaign rows. A SCHEDULED campaign that comes
// due starts: its audience (the book's subscribed, confirmed contacts, matching the segment when one
// is set) is stored as its recipients in one statement, and it turns RUNNING. Each later claim sends
// the next recipients through queueEmails (MARKETING, the campaign's id on every email): see
// fanout-send.ts. The claim's lease keeps a second worker off the campaign.
import type { Transaction } from 'kysely';
import { bookFacts, mailableContactsQuery } from '../contacts/index.ts';
import type { Database } from '../db/schema.ts';
import { defineQueue, type BatchContext, type Queue } from '../queue/index.ts';
import { segmentContactsQuery } from '../segments/index.ts';
import {
  addToStats,
  FANOUT_DONE,
  FANOUT_FAILED,
  FANOUT_READY,
  FANOUT_RETRY,
  lockLeasedCampaign,
  refreshRecipientStatistics,
  takeSnapshot,
} from './fanout-queries.ts';
import { recordCampaignEvent } from './events.ts';
import { sendBatch } from './fanout-send.ts';
import { updateCampaign, type CampaignRow } from './queries.ts';

export const CAMPAIGN_FANOUT_QUEUE = 'campaign-fanout';

const MINUTE = 60_000;

/** A snapshot this large gets the planner's statistics refreshed (refreshRecipientStatistics). */
const LARGE_SNAPSHOT = 10_000;

/** Starts a due campaign: its recipients as of now, then RUNNING and due at once; answers how many. */
async function start(tx: Transaction<Database>, campaign: CampaignRow, now: Date): Promise<number> {
  const { team_id: teamId } = campaign;
  const book = await bookFacts(tx, teamId, campaign.contact_book_id);
  let audience = book && mailableContactsQuery(tx, teamId, book.id, book.double_opt_in_enabled);
  if (audience && campaign.segment_id !== null) {
    const segment = await segmentContactsQuery(tx, teamId, campaign.segment_id, now);
    audience = segment && audience.where('c.id', 'in', segment.select('c.id'));
  }
  const total = audience ? await takeSnapshot(tx, campaign.id, audience) : 0;
  await addToStats(tx, teamId, campaign.id, { total });
  const started = await updateCampaign(tx, teamId, campaign.id, {
    status: 'RUNNING',
    started_at: now,
    next_batch_at: now,
    last_error: audience ? null : 'the contact book or segment no longer exists',
    updated_at: now,
  });
  await recordCampaignEvent(tx, 'campaign.started', started, now);
  return total;
}

/** A due campaign's turn: it starts, or (paused for the quota, the period turned) goes on, or sends a batch. */
async function fanOut(row: CampaignRow, ctx: BatchContext): Promise<void> {
  const now = ctx.clock.now();
  const turn = await ctx.db.transaction().execute(async (tx) => {
    const campaign = await lockLeasedCampaign(tx, row.id, ctx.leaseUntil);
    // Paused or deleted since the claim, or taken over by another worker: nothing to do.
    if (campaign?.status === 'SCHEDULED') {
      const total = await start(tx, campaign, now);
      return total >= LARGE_SNAPSHOT ? 'started large' : 'running';
    } else if (campaign?.status === 'PAUSED' && campaign.paused_reason === 'QUOTA') {
      await updateCampaign(tx, campaign.team_id, campaign.id, {
        status: 'RUNNING',
        paused_reason: null,
        updated_at: now,
      });
      return 'resumed';
    } else if (campaign?.status === 'RUNNING') return 'running';
    return 'none';
  });
  if (turn === 'started large') await refreshRecipientStatistics(ctx.db);
  if (turn !== 'none') await sendBatch(row, ctx, turn === 'resumed', now);
}

export function campaignFanoutQueue(): Queue {
  return defineQueue<CampaignRow>({
    name: CAMPAIGN_FANOUT_QUEUE,
    table: 'campaigns',
    idType: 'text',
    dueColumn: 'next_batch_at',
    leaseColumn: 'lease_until',
    attemptsColumn: 'attempts',
    readyWhere: FANOUT_READY,
    batchSize: 4,
    leaseMs: 5 * MINUTE,
    maxAttempts: 10,
    backoff: { baseMs: 10_000, maxMs: 30 * MINUTE },
    handleRow: fanOut,
    claimAgainAtOnce: true,
    onDone: FANOUT_DONE,
    onRetry: FANOUT_RETRY,
    onFailed: FANOUT_FAILED,
  });
}
