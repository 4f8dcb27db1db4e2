// The emails' and their events' statements by resource, team id first and in every WHERE. The area's
// other statements are in insert-queries.ts, usage-queries.ts, delivery-queries.ts, event-queries.ts,
// open-queries.ts, outbox-queries.ts and list-queries.ts (the list).
import { sql, type Selectable, type Transaction } from 'kysely';
import { verifiedDomainsJson } from '../domains/index.ts';
import { teamEffectivePlanOf } from '../accounts/index.ts';
import { openTally } from './email-opens.ts';
import { usageOfMonthFrom, usageOfMonthJson, type UsageOfMonth } from './usage-queries.ts';

import type {
  AddressField,
  Database,
  EmailEventsTable,
  EmailsTable,
  EmailSource,
  EmailStatus,
  TeamPlan,
  TemplateType,
} from '../db/schema.ts';
import type { Db } from '../db/handle.ts';

export type EmailRow = Selectable<EmailsTable>;
export type EmailEventRow = Selectable<EmailEventsTable>;

export interface NewEmail {
  id: string;
  /** Null: the built-in domain (HERALD_MAIL_DOMAIN), which has no row. */
  domainId: number | null;
  apiKeyId: string;
  from: string;
  to: AddressField | null;
  cc: AddressField | null;
  bcc: AddressField | null;
  replyTo: AddressField | null;
  subject: string;
  html: string | null;
  text: string | null;
  headers: Record<string, string> | null;
  templateId: string | null;
  /** The campaign that sent it (campaigns/), or null. */
  campaignId: string | null;
  /** Delivered by the bulk lane (campaign and journey mail). */
  bulk: boolean;
  /** Every recipient is a simulator address (simulator.ts): left out of the analytics counters. */
  simulated: boolean;
  inReplyToId: string | null;
  type: TemplateType;
  scheduledAt: Date | null;
  status: EmailStatus;
  runAt: Date;
  /** contentId: an inline part's Content-ID (no angle brackets), null for a plain attachment. */
  attachments: { filename: string; content: Buffer; contentId?: string | null }[];
  /** Where the send came from: 'api' unless SMTP submission made it (0023_email_source.sql). */
  source?: EmailSource;
  /** Distinct lower-cased recipient addresses (to, cc, bcc), suppressed ones included. */
  recipients: string[];
  /** Events written with the email, in order. */
  events: { status: EmailStatus; data: unknown }[];
}

/** What a send needs to know before it writes, read in one round trip. */
export interface SendContext {
  plan: TeamPlan | null;
  /** Verified domain id by lower-cased name, for the names asked about. */
  domains: Map<string, number>;
  /** The team's suppressed addresses among those asked about. */
  suppressed: Set<string>;
  /** Those of them that unsubscribed from the team's MARKETING mail. */
  unsubscribed: Set<string>;
  /** What the team has sent today and earlier this month, as read (not locked). */
  usage: UsageOfMonth;
}

interface ContextQuestion {
  teamId: number;
  /** Lower-cased from domains. */
  domainNames: string[];
  /** Lower-cased recipient addresses. */
  addresses: string[];
}

/** The contexts of several sends in one statement, with the teams' usage of `day` (queueEmails asks one question). */
export async function readSendContexts(db: Db, questions: ContextQuestion[], day: string): Promise<SendContext[]> {
  const asked = JSON.stringify(
    questions.map((q, i) => ({ q: i, team_id: q.teamId, names: q.domainNames, addresses: q.addresses })),
  );
  const result = await sql<{
    q: number;
    plan: TeamPlan | null;
    domains: [string, number][] | null;
    suppressed: string[] | null;
    unsubscribed: string[] | null;
    usage: [number, number, number];
  }>`
    SELECT a.q,
      ${teamEffectivePlanOf(sql`a.team_id`)} AS plan,
      ${verifiedDomainsJson(sql`a.team_id`, sql`a.names`)} AS domains,
      (SELECT json_agg(email) FROM suppressions WHERE team_id = a.team_id AND email = ANY(a.addresses)) AS suppressed,
      (SELECT json_agg(email) FROM unsubscribes WHERE team_id = a.team_id AND email = ANY(a.addresses)) AS unsubscribed,
      ${usageOfMonthJson(sql`a.team_id`, day)} AS usage
    FROM jsonb_to_recordset(${asked}::jsonb) AS a (q int, team_id int, names text[], addresses text[])`.execute(db);
  const byQuestion = new Map(result.rows.map((row) => [Number(row.q), row]));
  return questions.map((_, i) => {
    const row = byQuestion.get(i);
    return {
      plan: row?.plan ?? null,
      domains: new Map(row?.domains ?? []),
      suppressed: new Set(row?.suppressed ?? []),
      unsubscribed: new Set(row?.unsubscribed ?? []),
      usage: usageOfMonthFrom(row?.usage ?? [0, 0, 0]),
    };
  });
}

/** Which of `ids` are emails of the team. */
export async function existingEmailIds(db: Db, teamId: number, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .selectFrom('emails')
    .select('id')
    .where('team_id', '=', teamId)
    .where('id', 'in', ids)
    .execute();
  return new Set(rows.map((row) => row.id));
}

/** What a key may see of the team's emails: a sending key its own, a domain-limited key its domain's. */
interface EmailScope {
  onlyKeyId: string | null;
  onlyDomainId: number | null;
}

/** One email of the team, within the key's scope. */
export async function getEmail(db: Db, teamId: number, id: string, scope: EmailScope): Promise<EmailRow | undefined> {
  let query = db.selectFrom('emails').selectAll().where('team_id', '=', teamId).where('id', '=', id);
  if (scope.onlyKeyId !== null) query = query.where('api_key_id', '=', scope.onlyKeyId);
  if (scope.onlyDomainId !== null) query = query.where('domain_id', '=', scope.onlyDomainId);
  return query.executeTakeFirst();
}

/** The email's history. An OPENED event's data gains its copy's tally of later opens (email-opens.ts). */
export async function listEmailEvents(db: Db, teamId: number, emailId: string): Promise<EmailEventRow[]> {
  const rows = await db
    .selectFrom('email_events as e')
    .leftJoin('email_opens as o', (join) =>
      join.onRef('o.email_id', '=', 'e.email_id').onRef('o.open_key', '=', 'e.open_key'),
    )
    .selectAll('e')
    .select(['o.open_count', 'o.last_opened_at', 'o.recent_at', 'o.recent_user_agents'])
    .where('e.team_id', '=', teamId)
    .where('e.email_id', '=', emailId)
    .orderBy('e.id', 'asc')
    .execute();
  return rows.map(({ open_count, last_opened_at, recent_at, recent_user_agents, ...event }) =>
    open_count === null || last_opened_at === null || recent_at === null || recent_user_agents === null
      ? event
      : {
          ...event,
          data: {
            ...(event.data as object),
            ...openTally({ open_count, last_opened_at, recent_at, recent_user_agents }),
          },
        },
  );
}

/** Locks the team's email for a change of its schedule or a cancel; a domain-limited key reaches only its domain's. */
export async function getEmailForUpdate(
  tx: Transaction<Database>,
  teamId: number,
  id: string,
  onlyDomainId: number | null,
): Promise<EmailRow | undefined> {
  let query = tx.selectFrom('emails').selectAll().where('team_id', '=', teamId).where('id', '=', id);
  if (onlyDomainId !== null) query = query.where('domain_id', '=', onlyDomainId);
  return query.forUpdate().executeTakeFirst();
}

export async function updateEmailSchedule(
  tx: Transaction<Database>,
  teamId: number,
  id: string,
  changes: { status: EmailStatus; scheduledAt: Date | null; runAt: Date },
  now: Date,
): Promise<void> {
  await tx
    .updateTable('emails')
    .set({ status: changes.status, scheduled_at: changes.scheduledAt, run_at: changes.runAt, updated_at: now })
    .where('team_id', '=', teamId)
    .where('id', '=', id)
    .execute();
}

export async function setEmailStatus(
  tx: Transaction<Database>,
  teamId: number,
  id: string,
  status: EmailStatus,
  now: Date,
): Promise<void> {
  await tx
    .updateTable('emails')
    .set({ status, updated_at: now })
    .where('team_id', '=', teamId)
    .where('id', '=', id)
    .execute();
}
