// Email rows as the contract's Email full form (GET one) and list form (GET list), and as the
// payload of its `email.*` events (built here once; every writer of email events uses it).
import type { EmailStatus } from '../db/schema.ts';
import { emailEventType, eventBody, type EmailEventPayload, type EmailEventType } from '../webhooks/index.ts';
import type { Selectable } from 'kysely';
import type { EmailEventsTable, EmailsTable } from '../db/schema-email.ts';

// The row types by their tables, not from queries.ts: open-queries.ts imports this module.
type EmailRow = Selectable<EmailsTable>;
type EmailEventRow = Selectable<EmailEventsTable>;

/** The newest event: a deferred email waiting for its next attempt is QUEUED to the worker, DELIVERY_DELAYED to its reader. */
function latestStatusOf(row: EmailRow): EmailStatus {
  return row.status === 'QUEUED' && row.delivery_delayed ? 'DELIVERY_DELAYED' : row.status;
}

export function emailView(row: EmailRow, events: EmailEventRow[]) {
  return {
    id: row.id,
    teamId: row.team_id,
    // Contract: to as sent (string or string[]); a cc/bcc-only message has no to: [].
    to: row.to ?? [],
    ...(row.reply_to === null ? {} : { replyTo: row.reply_to }),
    ...(row.cc === null ? {} : { cc: row.cc }),
    ...(row.bcc === null ? {} : { bcc: row.bcc }),
    from: row.from,
    subject: row.subject,
    html: row.html,
    text: row.text,
    bodyRetained: row.body_removed_at === null,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    latestStatus: latestStatusOf(row),
    attempts: row.attempts,
    nextAttemptAt: row.status === 'QUEUED' && row.delivery_delayed ? row.run_at.toISOString() : null,
    campaignId: row.campaign_id,
    source: row.source,
    emailEvents: events.map((event) => ({
      emailId: event.email_id,
      status: event.status,
      createdAt: event.created_at.toISOString(),
      data: event.data ?? null,
    })),
  };
}

export function emailListView(row: EmailRow) {
  return {
    id: row.id,
    to: row.to ?? [],
    replyTo: row.reply_to,
    cc: row.cc,
    bcc: row.bcc,
    from: row.from,
    subject: row.subject,
    html: row.html,
    text: row.text,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    latestStatus: latestStatusOf(row),
    scheduledAt: row.scheduled_at?.toISOString() ?? null,
    domainId: row.domain_id,
    campaignId: row.campaign_id,
    source: row.source,
  };
}

/** What an event's payload shows of its email (none of it changes after the send). */
export type EmailOfEvent = Pick<
  EmailRow,
  'id' | 'team_id' | 'domain_id' | 'campaign_id' | 'from' | 'to' | 'subject' | 'created_at'
>;

/** The `data` of an `email.<status>` event (the catalogue's EmailEventData); `details` is the event's stored data. */
export function emailEventView(email: EmailOfEvent, status: EmailStatus, details: unknown): EmailEventPayload {
  return {
    emailId: email.id,
    domainId: email.domain_id,
    campaignId: email.campaign_id,
    status,
    from: email.from,
    // A cc/bcc-only message has no to: [] (as the API shows it).
    to: email.to ?? [],
    subject: email.subject,
    emailCreatedAt: email.created_at.toISOString(),
    details: details ?? null,
  };
}

/** An event as a set-based writer's statement takes it: its webhook call's type and body beside it. */
export interface EmailEventCall {
  domain_id: number | null;
  type: EmailEventType;
  payload: string;
}

export function emailEventCall(email: EmailOfEvent, status: EmailStatus, details: unknown, at: Date): EmailEventCall {
  const type = emailEventType(status);
  return { domain_id: email.domain_id, type, payload: eventBody(type, at, emailEventView(email, status, details)) };
}
