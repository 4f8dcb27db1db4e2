// The reads other areas make of emails through index.ts (inboxes' threading, journeys' runner,
// feedback's batch); each is one statement whatever the number of ids.
import { sql } from 'kysely';
import type { Db } from '../db/handle.ts';
import type { EmailStatus } from '../db/schema.ts';
import type { EmailOfEvent } from './views.ts';

/**
 * Which of these ids are the team's own emails. Herald's Message-IDs are `<emailId@HERALD_MAIL_DOMAIN>`
 * (src/emails, messageIdOf), so the email is found by its primary key, team checked.
 */
export async function teamEmailIds(db: Db, teamId: number, emailIds: string[]): Promise<Set<string>> {
  if (emailIds.length === 0) return new Set();
  const { rows } = await sql<{ id: string }>`
    SELECT id FROM emails WHERE team_id = ${teamId}::int AND id = ANY(${emailIds}::text[])`.execute(db);
  return new Set(rows.map((row) => row.id));
}

/** Emails that were not delivered and will not be: a run that sent one exits with SEND_FAILED. */
const FAILED_SEND_STATUSES = ['FAILED', 'BOUNCED', 'REJECTED', 'RENDERING_FAILURE', 'SUPPRESSED'] as const;

/** Of these emails (a run's sent steps), the ones that failed, with their status. */
export async function failedEmailsOf(
  db: Db,
  pairs: readonly { teamId: number; id: string }[],
): Promise<Map<string, string>> {
  if (pairs.length === 0) return new Map();
  const rows = await db
    .selectFrom('emails')
    .select(['id', 'status'])
    .where(
      sql<boolean>`(team_id, id) IN (SELECT * FROM unnest(${pairs.map((p) => p.teamId)}::integer[], ${pairs.map((p) => p.id)}::text[]))`,
    )
    .where('status', 'in', FAILED_SEND_STATUSES)
    .execute();
  return new Map(rows.map((row) => [row.id, row.status]));
}

/** An email as a feedback report needs it: its payload fields and the addresses it was sent to. */
export interface EmailWithRecipients {
  email: EmailOfEvent;
  sentTo: string[];
}

/** Emails by id, over many teams, with their recipients (joined by the email's team). The ids go as
 * one array parameter, so the statement's text is the same for every batch size (prepared once per
 * connection), and = ANY() finds each email by its key whatever the statistics say. */
export async function emailsWithRecipients(
  db: Db,
  emailIds: readonly string[],
): Promise<Map<string, EmailWithRecipients>> {
  const emails = new Map<string, EmailWithRecipients>();
  if (emailIds.length === 0) return emails;
  const rows = await sql<EmailOfEvent & { address: string | null }>`
    SELECT e.id, e.team_id, e.domain_id, e.campaign_id, e."from", e."to", e.subject, e.created_at, r.address FROM emails e
    LEFT JOIN email_recipients r ON r.team_id = e.team_id AND r.email_id = e.id
    WHERE e.id = ANY(${[...new Set(emailIds)]}::text[])`.execute(db);
  for (const row of rows.rows) {
    const { address, ...fields } = row;
    const found = emails.get(row.id) ?? { email: fields, sentTo: [] };
    if (address !== null) found.sentTo.push(address);
    emails.set(row.id, found);
  }
  return emails;
}

export interface CampaignEmail {
  id: string;
  /** The recipient: a campaign email goes to one address. */
  to: string;
  /** As the email's latestStatus reads it (a deferred one is DELIVERY_DELAYED). */
  status: EmailStatus;
  created_at: Date;
  updated_at: Date;
}

/**
 * A page of a campaign's emails, newest first, after `after` ([created_at ISO, id]), at most
 * `limit` rows, of one status when asked (campaigns' recipient list).
 */
export async function campaignEmailsPage(
  db: Db,
  teamId: number,
  campaignId: string,
  page: { status: EmailStatus | undefined; after: readonly [string, string] | undefined; limit: number },
): Promise<CampaignEmail[]> {
  let query = db
    .selectFrom('emails')
    .select(['id', sql<string>`"to" #>> '{}'`.as('to'), 'status', 'delivery_delayed', 'created_at', 'updated_at'])
    .where('team_id', '=', teamId)
    .where('campaign_id', '=', campaignId);
  if (page.status === 'DELIVERY_DELAYED')
    query = query.where('status', '=', 'QUEUED').where('delivery_delayed', '=', true);
  else if (page.status === 'QUEUED') query = query.where('status', '=', 'QUEUED').where('delivery_delayed', '=', false);
  else if (page.status !== undefined) query = query.where('status', '=', page.status);
  if (page.after !== undefined)
    query = query.where(sql<boolean>`(created_at, id) < (${page.after[0]}::timestamptz, ${page.after[1]})`);
  const rows = await query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(page.limit).execute();
  return rows.map(({ delivery_delayed, ...row }) => ({
    ...row,
    status: row.status === 'QUEUED' && delivery_delayed ? 'DELIVERY_DELAYED' : row.status,
  }));
}

/** The campaign the team's email belongs to, or null (no such email, or not a campaign's). */
export async function campaignOfEmail(db: Db, teamId: number, emailId: string): Promise<string | null> {
  const row = await db
    .selectFrom('emails')
    .select('campaign_id')
    .where('team_id', '=', teamId)
    .where('id', '=', emailId)
    .executeTakeFirst();
  return row?.campaign_id ?? null;
}
