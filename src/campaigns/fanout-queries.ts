// The fan-out's statements: the campaign row under this claim's lease, the snapshot of recipients,
// the next recipients without an email, and each recipient's email written beside it.
import { sql, type SelectQueryBuilder } from 'kysely';
import type { Db } from '../db/handle.ts';
import type { Database } from '../db/schema.ts';
import type { CampaignRow } from './queries.ts';

/** The queue's claim condition: a campaign paused for the quota is taken up again once its period has turned. */
export const FANOUT_READY = sql`(status IN ('SCHEDULED', 'RUNNING') OR (status = 'PAUSED' AND paused_reason = 'QUOTA'))`;
/** Finalisers: each claim is one batch of a long campaign, so attempts count failures in a row, not batches. */
export const FANOUT_DONE = sql`attempts = 0, last_error = NULL`;
export const FANOUT_RETRY = sql`last_error = job_error`;
/** Out of attempts: paused with the reason, for the team to resume once it is mended. */
export const FANOUT_FAILED = sql`status = 'PAUSED', paused_reason = 'MANUAL', next_batch_at = NULL, last_error = job_error`;

/**
 * The campaign, if this claim's lease still holds it (else another worker took it over): locked
 * FOR UPDATE, or FOR SHARE by a chunk, so that the claim's chunks run side by side while a pause,
 * which updates the row, waits for them.
 */
export function lockLeasedCampaign(
  db: Db,
  id: string,
  leaseUntil: Date,
  mode: 'update' | 'share' = 'update',
): Promise<CampaignRow | undefined> {
  const query = db.selectFrom('campaigns').selectAll().where('id', '=', id).where('lease_until', '=', leaseUntil);
  return (mode === 'update' ? query.forUpdate() : query.forShare()).executeTakeFirst();
}

/** A query over `contacts AS c` (contacts/index.ts, segments/index.ts): who the campaign goes to. */
type Audience = SelectQueryBuilder<Database & { c: Database['contacts'] }, 'c', object>;

/** Stores who the campaign goes to now, in one statement; answers how many. */
export async function takeSnapshot(db: Db, campaignId: string, audience: Audience): Promise<number> {
  const result = await db
    .insertInto('campaign_recipients')
    .columns(['campaign_id', 'contact_id', 'email'])
    .expression(audience.select([sql<string>`${campaignId}::text`.as('campaign_id'), 'c.id', 'c.email']))
    .onConflict((oc) => oc.doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0n);
}

export interface Recipient {
  contact_id: string;
  email: string;
}

/**
 * The next recipients without an email, in contact order, locked for this chunk; those another
 * chunk has locked are skipped. After `afterContactId` when the claim has sent some already: the
 * partial index is walked from there, not over the entries its earlier chunks left dead.
 */
export function takeUnsentRecipients(
  db: Db,
  campaignId: string,
  afterContactId: string | null,
  limit: number,
): Promise<Recipient[]> {
  let query = db
    .selectFrom('campaign_recipients')
    .select(['contact_id', 'email'])
    .where('campaign_id', '=', campaignId)
    .where('email_id', 'is', null);
  if (afterContactId !== null) query = query.where('contact_id', '>', afterContactId);
  return query.orderBy('contact_id').limit(limit).forUpdate().skipLocked().execute();
}

/** Whether any recipient still has no email, whoever holds it. */
export async function anyUnsentRecipient(db: Db, campaignId: string): Promise<boolean> {
  const row = await db
    .selectFrom('campaign_recipients')
    .select('contact_id')
    .where('campaign_id', '=', campaignId)
    .where('email_id', 'is', null)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * After a large snapshot: the planner's statistics of the recipients, so that the chunk reads walk
 * the partial index in order. With the statistics of before the snapshot (a few rows) it read every
 * unsent recipient through a bitmap and sorted them, for each chunk (bench/RESULTS.md, campaigns).
 */
export async function refreshRecipientStatistics(db: Db): Promise<void> {
  await sql`ANALYZE campaign_recipients`.execute(db);
}

/** Each recipient's email, in the transaction that stored it: a recipient with one is never sent again. */
export async function recordRecipientEmails(
  db: Db,
  campaignId: string,
  sent: readonly { contactId: string; emailId: string }[],
): Promise<void> {
  if (sent.length === 0) return;
  await sql`UPDATE campaign_recipients r SET email_id = s.email_id
    FROM unnest(${sent.map((s) => s.contactId)}::text[], ${sent.map((s) => s.emailId)}::text[]) AS s (contact_id, email_id)
    WHERE r.campaign_id = ${campaignId} AND r.contact_id = s.contact_id`.execute(db);
}

/** Recipients who left the book or unsubscribed since the snapshot: no email, and out of the total. */
export async function dropRecipients(db: Db, teamId: number, campaignId: string, contactIds: readonly string[]) {
  if (contactIds.length === 0) return;
  await db
    .deleteFrom('campaign_recipients')
    .where('campaign_id', '=', campaignId)
    .where('contact_id', 'in', [...contactIds])
    .execute();
  await addToStats(db, teamId, campaignId, { total: -contactIds.length });
}

export async function addToStats(db: Db, teamId: number, campaignId: string, change: { total: number }) {
  await db
    .updateTable('campaign_stats')
    .set((eb) => ({ total: eb('total', '+', change.total) }))
    .where('team_id', '=', teamId)
    .where('campaign_id', '=', campaignId)
    .execute();
}

/** The contact each of these emails of the campaign went to. */
export async function contactsOfEmails(
  db: Db,
  campaignId: string,
  emailIds: readonly string[],
): Promise<Map<string, string>> {
  if (emailIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('campaign_recipients')
    .select(['email_id', 'contact_id'])
    .where('campaign_id', '=', campaignId)
    .where('email_id', 'in', [...emailIds])
    .execute();
  return new Map(rows.map((row) => [row.email_id!, row.contact_id]));
}
