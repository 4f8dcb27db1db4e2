// Email rows as the contract's Email full form (GET one) and list form (GET list).
import type { EmailEventRow, EmailRow } from './queries.ts';

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
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
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
    latestStatus: row.status,
    scheduledAt: row.scheduled_at?.toISOString() ?? null,
    domainId: row.domain_id,
  };
}
