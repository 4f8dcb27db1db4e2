// One claim's sending for a RUNNING campaign: chunks of recipients, each in a transaction of its own
// through queueEmailSends, two in flight, so that one chunk is read and rendered while the other is
// stored and committed. A chunk locks its recipients (those of the other chunk are skipped) and holds
// the campaign row FOR SHARE: a pause, which updates the row, waits for the chunks in flight, and
// the next chunk sees it. A recipient's email id is written in the chunk that sent it: a worker
// killed mid-chunk leaves nothing half-sent, and the next claim finds exactly who is still unsent.
import { contactsOf } from '../contacts/index.ts';
import { queueEmailSends, SendLimitReached, UsageRaced, type SendOutcome } from '../emails/index.ts';
import { queueTeamNotice } from '../notices/index.ts';
import { systemPrincipal } from '../platform/auth/system-principal.ts';
import type { BatchContext } from '../queue/index.ts';
import { recordCampaignEvent } from './events.ts';
import {
  anyUnsentRecipient,
  dropRecipients,
  lockLeasedCampaign,
  recordRecipientEmails,
  takeUnsentRecipients,
} from './fanout-queries.ts';
import { campaignEmail } from './message.ts';
import { updateCampaign, type CampaignRow } from './queries.ts';

const MINUTE = 60_000;
/** queueEmails takes at most 100 inputs in a send; a chunk is several sends in one transaction. */
const SEND_SIZE = 100;
/** Recipients per transaction: fewer round trips per recipient (bench/RESULTS.md, campaigns). */
const SEND_CHUNK = 250;
/** Chunks in flight at once: while one waits for PostgreSQL, the other uses the CPU. */
const CHUNKS_IN_FLIGHT = 2;
/** Recipients one claim sends at most, whatever the batch size: other campaigns get their turn. */
const CLAIM_MAX = 5_000;

/** How many recipients this claim sends: the batch size, at most CLAIM_MAX (the next claim comes after its share of the window). */
function claimSize(campaign: CampaignRow): number {
  return Math.min(campaign.batch_window_minutes === 0 ? CLAIM_MAX : campaign.batch_size, CLAIM_MAX);
}

/** When the next claim is due: at once, or after its share of the batch window. */
function nextBatchAt(campaign: CampaignRow, sent: number, now: Date): Date {
  if (campaign.batch_window_minutes === 0) return now;
  return new Date(now.getTime() + (campaign.batch_window_minutes * MINUTE * sent) / campaign.batch_size);
}

/** What a chunk did: how many recipients it took and the last of them; none left it could take; or the campaign stopped. */
type Chunk = { taken: number; last: string } | 'none' | 'stopped';

/**
 * The next `size` unsent recipients after `after`, in one transaction. The team's usage row is taken
 * last, by the statement that stores the emails, so that the chunk in flight beside this one waits
 * for it only from there to commit; if what that chunk added changes a decision, the chunk runs
 * again with the row taken first.
 */
async function sendChunk(
  row: CampaignRow,
  ctx: BatchContext,
  size: number,
  after: string | null,
  now: Date,
  usageLock: 'first' | 'last' = 'last',
): Promise<Chunk> {
  try {
    return await ctx.db.transaction().execute(async (tx) => {
      const campaign = await lockLeasedCampaign(tx, row.id, ctx.leaseUntil, 'share');
      if (campaign?.status !== 'RUNNING') return 'stopped';
      const { team_id: teamId } = campaign;
      const recipients = await takeUnsentRecipients(tx, campaign.id, after, size);
      if (recipients.length === 0) return 'none';
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
      // Each recipient's email, written before the emails so that the usage row is held the least.
      const beside = async (outcomes: SendOutcome[]) => {
        const ids = outcomes.flatMap((o) => ('sent' in o ? o.sent.ids : []));
        if (ids.length !== sending.length) return;
        const sent = sending.map((r, i) => ({ contactId: r.contact_id, emailId: ids[i]! }));
        await recordRecipientEmails(tx, campaign.id, sent);
      };
      const outcomes = await queueEmailSends(tx, sends, { now, usageLock, beside });
      // A refused send (over the plan's limit) rolls the chunk back: sendBatch tries it again smaller.
      for (const outcome of outcomes) if ('refused' in outcome) throw outcome.refused;
      return { taken: recipients.length, last: recipients.at(-1)!.contact_id };
    });
  } catch (error) {
    if (error instanceof UsageRaced) return sendChunk(row, ctx, size, after, now, 'first');
    throw error;
  }
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

/** A claim's progress, shared by its chunks in flight. */
interface Progress {
  left: number;
  taken: number;
  /** The last recipient taken: the next chunk reads after it. */
  after: string | null;
  /** Why the chunks stopped taking more, if they did. */
  end: 'none' | 'stopped' | SendLimitReached | null;
}

/** Takes chunks until the claim's share is sent or the campaign ends, stops or meets the plan's limit. */
async function chunkLoop(row: CampaignRow, ctx: BatchContext, progress: Progress, now: Date): Promise<void> {
  while (progress.left > 0 && progress.end === null && !ctx.signal.aborted) {
    const size = Math.min(SEND_CHUNK, progress.left);
    progress.left -= size;
    let result: Chunk;
    try {
      result = await sendChunk(row, ctx, size, progress.after, now);
    } catch (error) {
      if (!(error instanceof SendLimitReached)) {
        // The other chunk in flight stops after its own; the claim then fails with this error.
        progress.end = 'stopped';
        throw error;
      }
      progress.left += size;
      progress.end = error;
      return;
    }
    if (typeof result === 'string') {
      progress.end ??= result;
      return;
    }
    progress.left += size - result.taken;
    progress.taken += result.taken;
    if (progress.after === null || result.last > progress.after) progress.after = result.last;
  }
}

/**
 * Over the plan's limit part of a chunk may still fit: chunks of half the size, down to one
 * recipient, from the first unsent, for what is left of the claim's share. When not even one fits,
 * the campaign pauses for the quota: answers 'paused'; else how many were taken.
 */
async function sendWhatFits(
  row: CampaignRow,
  ctx: BatchContext,
  left: number,
  wasQuotaPaused: boolean,
  now: Date,
): Promise<number | 'paused' | 'stopped'> {
  let size = SEND_CHUNK / 2;
  let after: string | null = null;
  let taken = 0;
  while (left > taken) {
    let result: Chunk;
    try {
      result = await sendChunk(row, ctx, Math.min(size, left - taken), after, now);
    } catch (error) {
      if (!(error instanceof SendLimitReached)) throw error;
      if (size > 1) {
        size = Math.ceil(size / 2);
        continue;
      }
      await pauseForQuota(row, ctx, error, !wasQuotaPaused, now);
      return 'paused';
    }
    if (result === 'stopped') return result;
    if (result === 'none') break;
    taken += result.taken;
    after = result.last;
  }
  return taken;
}

/** The claim's end: SENT when nobody is left unsent, else due again after its share of the window. */
async function endClaim(row: CampaignRow, ctx: BatchContext, taken: number, now: Date): Promise<void> {
  await ctx.db.transaction().execute(async (tx) => {
    const campaign = await lockLeasedCampaign(tx, row.id, ctx.leaseUntil);
    if (campaign?.status !== 'RUNNING') return;
    if (!(await anyUnsentRecipient(tx, campaign.id))) {
      const sent = await updateCampaign(tx, campaign.team_id, campaign.id, {
        status: 'SENT',
        finished_at: now,
        next_batch_at: null,
        updated_at: now,
      });
      await recordCampaignEvent(tx, 'campaign.sent', sent, now);
      return;
    }
    await updateCampaign(tx, campaign.team_id, campaign.id, {
      next_batch_at: nextBatchAt(campaign, taken, now),
      updated_at: now,
    });
  });
}

/** Sends the claim's share of the batch, CHUNKS_IN_FLIGHT chunks at a time, then ends the claim. */
export async function sendBatch(row: CampaignRow, ctx: BatchContext, wasQuotaPaused: boolean, now: Date) {
  const progress: Progress = { left: claimSize(row), taken: 0, after: null, end: null };
  const loops = await Promise.allSettled(
    Array.from({ length: CHUNKS_IN_FLIGHT }, () => chunkLoop(row, ctx, progress, now)),
  );
  for (const loop of loops) if (loop.status === 'rejected') throw loop.reason;
  if (progress.end === 'stopped') return;
  if (progress.end instanceof SendLimitReached) {
    const fitted = await sendWhatFits(row, ctx, progress.left, wasQuotaPaused, now);
    if (typeof fitted !== 'number') return;
    progress.taken += fitted;
  }
  await endClaim(row, ctx, progress.taken, now);
}
