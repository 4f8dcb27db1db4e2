// Every SQL statement of the emails area; the team id comes first and is in every WHERE.
import { sql, type Kysely, type RawBuilder, type Selectable, type Transaction } from 'kysely';
import { verifiedDomainsQuery } from '../domains/index.ts';
import type { AddressField, Database, EmailEventsTable, EmailsTable, EmailStatus, TeamPlan, TemplateType } from '../db/schema.ts';

export type EmailRow = Selectable<EmailsTable>;
export type EmailEventRow = Selectable<EmailEventsTable>;
type Db = Kysely<Database> | Transaction<Database>;

const json = (value: unknown) => (value === undefined || value === null ? null : JSON.stringify(value));

export interface NewEmail {
  id: string;
  domainId: number;
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
  inReplyToId: string | null;
  type: TemplateType;
  scheduledAt: Date | null;
  status: EmailStatus;
  runAt: Date;
  attachments: { filename: string; content: Buffer }[];
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
}

export async function readSendContext(db: Db, teamId: number, domainNames: string[], addresses: string[]): Promise<SendContext> {
  // Array parameters keep the statement's text the same for any number of names and addresses, so
  // it is prepared once per connection (src/db/prepared-pool.ts).
  const row = await sql<{ plan: TeamPlan | null; domains: [string, number][] | null; suppressed: string[] | null; unsubscribed: string[] | null }>`
    SELECT
      (SELECT plan FROM teams WHERE id = ${teamId}) AS plan,
      (SELECT json_agg(json_build_array(d.name, d.id)) FROM (${verifiedDomainsQuery(db, teamId, domainNames)}) AS d) AS domains,
      (SELECT json_agg(email) FROM suppressions WHERE team_id = ${teamId} AND email = ANY(${addresses}::text[])) AS suppressed,
      (SELECT json_agg(email) FROM unsubscribes WHERE team_id = ${teamId} AND email = ANY(${addresses}::text[])) AS unsubscribed`.execute(db);
  const context = row.rows[0]!;
  return {
    plan: context.plan ?? null,
    domains: new Map(context.domains ?? []),
    suppressed: new Set(context.suppressed ?? []),
    unsubscribed: new Set(context.unsubscribed ?? []),
  };
}

/** Which of `ids` are emails of the team. */
export async function existingEmailIds(db: Db, teamId: number, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db.selectFrom('emails').select('id').where('team_id', '=', teamId).where('id', 'in', ids).execute();
  return new Set(rows.map((row) => row.id));
}

/** The team's suppressed addresses among `addresses` (lower-cased). */
export async function suppressedAmong(db: Db, teamId: number, addresses: string[]): Promise<Set<string>> {
  if (addresses.length === 0) return new Set();
  const rows = await db.selectFrom('suppressions').select('email').where('team_id', '=', teamId).where('email', 'in', addresses).execute();
  return new Set(rows.map((row) => row.email));
}

/**
 * Stores emails with their events, recipients and attachments in ONE statement, which is one round
 * trip and, outside a transaction, its own transaction. `reserve` is a data-modifying statement
 * (the send-quota reservation) that returns a row when it succeeded; when it returns none nothing
 * is stored. Returns the number of emails stored.
 */
export async function storeEmails(db: Db, teamId: number, emails: NewEmail[], now: Date, reserve: RawBuilder<unknown>): Promise<number> {
  if (emails.length === 0) return 0;
  const rows = emails.map((e) => ({
    id: e.id,
    team_id: teamId,
    domain_id: e.domainId,
    api_key_id: e.apiKeyId,
    from: e.from,
    to: e.to,
    cc: e.cc,
    bcc: e.bcc,
    reply_to: e.replyTo,
    subject: e.subject,
    html: e.html,
    text: e.text,
    headers: e.headers,
    template_id: e.templateId,
    in_reply_to_id: e.inReplyToId,
    type: e.type,
    scheduled_at: e.scheduledAt,
    status: e.status,
    run_at: e.runAt,
    created_at: now,
    updated_at: now,
  }));
  const events = emails.flatMap((e) => e.events.map((event) => ({ team_id: teamId, email_id: e.id, status: event.status, data: event.data ?? null, created_at: now })));
  const recipients = emails.flatMap((e) => e.recipients.map((address) => ({ id: e.id, address })));
  const attachments = emails.flatMap((e) => e.attachments.map((a, position) => ({ id: e.id, position, filename: a.filename, hex: a.content.toString('hex') })));
  const attachmentStep =
    attachments.length === 0
      ? sql``
      : sql`, new_attachments AS (
          INSERT INTO email_attachments (email_id, position, filename, content)
          SELECT a.email_id, a.position, a.filename, decode(a.hex, 'hex')
          FROM unnest(${attachments.map((a) => a.id)}::text[], ${attachments.map((a) => a.position)}::int[],
                      ${attachments.map((a) => a.filename)}::text[], ${attachments.map((a) => a.hex)}::text[]) AS a (email_id, position, filename, hex)
          WHERE EXISTS (SELECT 1 FROM new_emails))`;
  // Events keep their order (ids follow it): WITH ORDINALITY and ORDER BY.
  const result = await sql<{ stored: number }>`
    WITH reserve AS (${reserve}),
    new_emails AS (
      INSERT INTO emails (id, team_id, domain_id, api_key_id, "from", "to", cc, bcc, reply_to, subject, html, text, headers,
                          template_id, in_reply_to_id, type, scheduled_at, status, run_at, created_at, updated_at)
      SELECT id, team_id, domain_id, api_key_id, "from", "to", cc, bcc, reply_to, subject, html, text, headers,
             template_id, in_reply_to_id, type, scheduled_at, status, run_at, created_at, updated_at
      FROM jsonb_populate_recordset(NULL::emails, ${JSON.stringify(rows)}::jsonb)
      WHERE EXISTS (SELECT 1 FROM reserve)
      RETURNING id
    ),
    new_events AS (
      INSERT INTO email_events (team_id, email_id, status, data, created_at)
      SELECT e.team_id, e.email_id, e.status, e.data, e.created_at
      FROM jsonb_populate_recordset(NULL::email_events, ${JSON.stringify(events)}::jsonb) WITH ORDINALITY AS e
      WHERE EXISTS (SELECT 1 FROM new_emails)
      ORDER BY e.ordinality
    ),
    new_recipients AS (
      INSERT INTO email_recipients (team_id, address, email_id)
      SELECT ${teamId}::int, r.address, r.email_id
      FROM unnest(${recipients.map((r) => r.id)}::text[], ${recipients.map((r) => r.address)}::text[]) AS r (email_id, address)
      WHERE EXISTS (SELECT 1 FROM new_emails)
    )${attachmentStep}
    SELECT count(*)::int AS stored FROM new_emails`.execute(db);
  return Number(result.rows[0]?.stored ?? 0);
}

/** What a key may see of the team's emails: a sending key its own, a domain-limited key its domain's. */
export interface EmailScope {
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

export async function listEmailEvents(db: Db, teamId: number, emailId: string): Promise<EmailEventRow[]> {
  return db.selectFrom('email_events').selectAll().where('team_id', '=', teamId).where('email_id', '=', emailId).orderBy('id', 'asc').execute();
}

export interface EmailFilter {
  startDate: Date | null;
  endDate: Date | null;
  domainIds: number[] | null;
}

export async function listEmails(db: Db, teamId: number, filter: EmailFilter, page: number, limit: number): Promise<{ rows: EmailRow[]; count: number }> {
  let base = db.selectFrom('emails').where('team_id', '=', teamId);
  if (filter.startDate) base = base.where('created_at', '>=', filter.startDate);
  if (filter.endDate) base = base.where('created_at', '<=', filter.endDate);
  if (filter.domainIds) base = base.where('domain_id', 'in', filter.domainIds.length > 0 ? filter.domainIds : [-1]);
  const rows = await base
    .selectAll()
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .offset((page - 1) * limit)
    .execute();
  const counted = await base.select(sql<string>`count(*)`.as('count')).executeTakeFirstOrThrow();
  return { rows, count: Number(counted.count) };
}

/** Locks the team's email for a change of its schedule or a cancel; a domain-limited key reaches only its domain's. */
export async function getEmailForUpdate(tx: Transaction<Database>, teamId: number, id: string, onlyDomainId: number | null): Promise<EmailRow | undefined> {
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

export async function setEmailStatus(tx: Transaction<Database>, teamId: number, id: string, status: EmailStatus, now: Date): Promise<void> {
  await tx.updateTable('emails').set({ status, updated_at: now }).where('team_id', '=', teamId).where('id', '=', id).execute();
}

export async function insertEmailEvent(tx: Transaction<Database>, teamId: number, emailId: string, status: EmailStatus, data: unknown, now: Date): Promise<void> {
  await tx.insertInto('email_events').values({ team_id: teamId, email_id: emailId, status, data: json(data), created_at: now }).execute();
}
