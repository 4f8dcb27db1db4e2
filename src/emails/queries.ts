// Every SQL statement of the emails area; the team id comes first and is in every WHERE.
import { sql, type Kysely, type Selectable, type Transaction } from 'kysely';
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

export async function teamPlan(db: Db, teamId: number): Promise<TeamPlan | undefined> {
  return (await db.selectFrom('teams').select('plan').where('id', '=', teamId).executeTakeFirst())?.plan;
}

/** The team's suppressed addresses among `addresses` (lower-cased). */
export async function suppressedAmong(db: Db, teamId: number, addresses: string[]): Promise<Set<string>> {
  if (addresses.length === 0) return new Set();
  const rows = await db.selectFrom('suppressions').select('email').where('team_id', '=', teamId).where('email', 'in', addresses).execute();
  return new Set(rows.map((row) => row.email));
}

export async function insertEmails(tx: Transaction<Database>, teamId: number, emails: NewEmail[], now: Date): Promise<void> {
  if (emails.length === 0) return;
  await tx
    .insertInto('emails')
    .values(
      emails.map((e) => ({
        id: e.id,
        team_id: teamId,
        domain_id: e.domainId,
        api_key_id: e.apiKeyId,
        from: e.from,
        to: json(e.to),
        cc: json(e.cc),
        bcc: json(e.bcc),
        reply_to: json(e.replyTo),
        subject: e.subject,
        html: e.html,
        text: e.text,
        headers: json(e.headers),
        template_id: e.templateId,
        in_reply_to_id: e.inReplyToId,
        type: e.type,
        scheduled_at: e.scheduledAt,
        status: e.status,
        run_at: e.runAt,
        created_at: now,
        updated_at: now,
      })),
    )
    .execute();
  const events = emails.flatMap((e) => e.events.map((event) => ({ team_id: teamId, email_id: e.id, status: event.status, data: json(event.data), created_at: now })));
  if (events.length > 0) await tx.insertInto('email_events').values(events).execute();
  const recipients = emails.flatMap((e) => e.recipients.map((address) => ({ team_id: teamId, address, email_id: e.id })));
  if (recipients.length > 0) await tx.insertInto('email_recipients').values(recipients).execute();
  const attachments = emails.flatMap((e) => e.attachments.map((a, position) => ({ email_id: e.id, position, filename: a.filename, content: a.content })));
  for (const attachment of attachments) await tx.insertInto('email_attachments').values(attachment).execute();
}

/** One email of the team; a sending key (onlyKeyId) sees only the emails it sent. */
export async function getEmail(db: Db, teamId: number, id: string, onlyKeyId: string | null): Promise<EmailRow | undefined> {
  let query = db.selectFrom('emails').selectAll().where('team_id', '=', teamId).where('id', '=', id);
  if (onlyKeyId !== null) query = query.where('api_key_id', '=', onlyKeyId);
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

/** Locks the team's email for a change of its schedule or a cancel. */
export async function getEmailForUpdate(tx: Transaction<Database>, teamId: number, id: string): Promise<EmailRow | undefined> {
  return tx.selectFrom('emails').selectAll().where('team_id', '=', teamId).where('id', '=', id).forUpdate().executeTakeFirst();
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
