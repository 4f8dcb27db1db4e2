// The fan-out: the `campaign-fanout` queue over the campaign rows. A SCHEDULED campaign that comes
// due starts: its audience (the book's subscribed, confirmed contacts, matching the segment when one
// is set) is stored as its recipients in one statement, and it turns RUNNING. Each later claim sends
// the next recipients through queueEmails (MARKETING, the campaign's id on every email), a chunk per
// transaction that also writes each recipient's email id, under the claim's lease and the campaign
// row's lock: a worker killed mid-chunk leaves nothing half-sent, the next claim finds exactly the
// recipients still without an email, a pause waits for the chunk, and two workers never send one.
import type { Transaction } from 'kysely';
import { bookFacts, contactsOf, mailableContactsQuery } from '../contacts/index.ts';
import type { Database } from '../db/schema.ts';
import { queueEmailSends, SendLimitReached } from '../emails/index.ts';
import { queueTeamNotice } from '../notices/index.ts';
import { systemPrincipal } from '../platform/auth/system-principal.ts';
import { defineQueue, type BatchContext, type Queue } from '../queue/index.ts';
import { segmentContactsQuery } from '../segments/index.ts';
import {
  addToStats,
  dropRecipients,
  FANOUT_DONE,
  FANOUT_FAILED,
  FANOUT_READY,
  FANOUT_RETRY,
  lockLeasedCampaign,
  recordRecipientEmails,
  refreshRecipientStatistics,
  takeSnapshot,
  unsentRecipients,
} from './fanout-queries.ts';
import { recordCampaignEvent } from './events.ts';
import { campaignEmail } from './message.ts';
import { updateCampaign, type CampaignRow } from './queries.ts';

export const CAMPAIGN_FANOUT_QUEUE = 'campaign-fanout';

const MINUTE = 60_000;
/** queueEmails takes at most 100 inputs in a send; a chunk is several sends in one transaction. */
const SEND_SIZE = 100;
/** Recipients per transaction: fewer round trips per recipient (bench/RESULTS.md, campaigns). */
const SEND_CHUNK = 500;
/** Recipients one claim sends at most: a transaction of bounded size, whatever the batch size. */
const CLAIM_MAX = 500;

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

/** How many recipients this claim sends: the batch size, at most CLAIM_MAX (the next claim comes after its share of the window). */
function claimSize(campaign: CampaignRow): number {
  return Math.min(campaign.batch_size, CLAIM_MAX);
}

/** When the next claim is due: at once, or after its share of the batch window. */
function nextBatchAt(campaign: CampaignRow, sent: number, now: Date): Date {
  if (campaign.batch_window_minutes === 0) return now;
  return new Date(now.getTime() + (campaign.batch_window_minutes * MINUTE * sent) / campaign.batch_size);
}

/** A chunk's work: how many recipients it took, and the last of them (the next chunk starts after it). */
type Chunk = { taken: number; last: string } | 'stopped';

/** The next `size` recipients after `after` in one transaction, or 'stopped' (paused, deleted, taken over, finished). */
async function sendChunk(
  row: CampaignRow,
  ctx: BatchContext,
  size: number,
  after: string | null,
  now: Date,
): Promise<Chunk> {
  return ctx.db.transaction().execute(async (tx) => {
    const campaign = await lockLeasedCampaign(tx, row.id, ctx.leaseUntil);
    if (campaign?.status !== 'RUNNING') return 'stopped';
    const { team_id: teamId } = campaign;
    const recipients = await unsentRecipients(tx, campaign.id, after, size);
    if (recipients.length === 0) {
      const sent = await updateCampaign(tx, teamId, campaign.id, {
        status: 'SENT',
        finished_at: now,
        next_batch_at: null,
        updated_at: now,
      });
      await recordCampaignEvent(tx, 'campaign.sent', sent, now);
      return 'stopped';
    }
    const contacts = new Map(
      (
        await contactsOf(
          tx,
          recipients.map((r) => ({ teamId, id: r.contact_id })),
        )
      ).map((c) => [c.id, c]),
    );
    // Who left the book or unsubscribed since the snapshot gets nothing.
    const gone = recipients.filter((r) => contacts.get(r.contact_id)?.subscribed !== true);
    await dropRecipients(
      tx,
      teamId,
      campaign.id,
      gone.map((r) => r.contact_id),
    );
    const sending = recipients.filter((r) => contacts.get(r.contact_id)?.subscribed === true);
    const sends = [];
    for (let i = 0; i < sending.length; i += SEND_SIZE) {
      const group = sending.slice(i, i + SEND_SIZE);
      const inputs = group.map((r) => campaignEmail(campaign, contacts.get(r.contact_id)!));
      sends.push({ principal: systemPrincipal(teamId, 'campaign'), inputs, batch: true, campaignId: campaign.id });
    }
    const outcomes = await queueEmailSends(tx, sends, { now });
    // A refused send (over the plan's limit) rolls the chunk back: sendBatch tries it again smaller.
    for (const outcome of outcomes) if ('refused' in outcome) throw outcome.refused;
    const ids = outcomes.flatMap((o) => ('sent' in o ? o.sent.ids : []));
    await recordRecipientEmails(
      tx,
      campaign.id,
      sending.map((r, i) => ({ contactId: r.contact_id, emailId: ids[i]! })),
    );
    return { taken: recipients.length, last: recipients.at(-1)!.contact_id };
  });
}

/** When the plan's limit allows sending again: the next UTC day, or the next UTC month. */
function nextPeriod(period: 'day' | 'month', now: Date): Date {
  return period === 'day'
    ? new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1))
    : new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
}

/**
 * Over the plan's limit: PAUSED with reason QUOTA, due again when the period turns (the queue takes
 * such a campaign up again by itself); the owner and admins are told once, not at each retry.
 */
async function pauseForQuota(row: CampaignRow, ctx: BatchContext, limit: SendLimitReached, tell: boolean, now: Date) {
  await ctx.db.transaction().execute(async (tx) => {
    const campaign = await lockLeasedCampaign(tx, row.id, ctx.leaseUntil);
    if (campaign?.status !== 'RUNNING') return;
    const resumesAt = nextPeriod(limit.period, now);
    const paused = await updateCampaign(tx, campaign.team_id, campaign.id, {
      status: 'PAUSED',
      paused_reason: 'QUOTA',
      next_batch_at: resumesAt,
      last_error: limit.message,
      updated_at: now,
    });
    if (!tell) return;
    await recordCampaignEvent(tx, 'campaign.paused', paused, now);
    const notice = {
      kind: 'campaign.paused',
      subject: `Campaign "${campaign.name}" paused: send limit reached`,
      text:
        `Your campaign "${campaign.name}" (${campaign.id}) was paused: ${limit.message}.\n\n` +
        `It goes on by itself from ${resumesAt.toISOString()} when the limit allows, or resume it once the plan allows more.`,
    };
    await queueTeamNotice(tx, campaign.team_id, notice, now);
  });
}

/**
 * Sends up to the claim's share of the batch, a chunk (one transaction) at a time. A chunk over the
 * plan's limit is tried again smaller, since part of it may still fit; when not even one email
 * fits, the campaign pauses for the quota.
 */
async function sendBatch(row: CampaignRow, ctx: BatchContext, wasQuotaPaused: boolean, now: Date): Promise<void> {
  let left = claimSize(row);
  let size = SEND_CHUNK;
  let taken = 0;
  let after: string | null = null;
  while (left > 0) {
    let result: Chunk;
    try {
      result = await sendChunk(row, ctx, Math.min(size, left), after, now);
    } catch (error) {
      if (!(error instanceof SendLimitReached)) throw error;
      if (size > 1) {
        size = Math.ceil(size / 2);
        continue;
      }
      await pauseForQuota(row, ctx, error, !wasQuotaPaused, now);
      return;
    }
    if (result === 'stopped') return;
    taken += result.taken;
    left -= result.taken;
    after = result.last;
  }
  await ctx.db.transaction().execute(async (tx) => {
    const campaign = await lockLeasedCampaign(tx, row.id, ctx.leaseUntil);
    if (campaign?.status !== 'RUNNING') return;
    await updateCampaign(tx, campaign.team_id, campaign.id, {
      next_batch_at: nextBatchAt(campaign, taken, now),
      updated_at: now,
    });
  });
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
    onDone: FANOUT_DONE,
    onRetry: FANOUT_RETRY,
    onFailed: FANOUT_FAILED,
  });
}
