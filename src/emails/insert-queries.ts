// The one statement that stores checked sends (of one or many teams): its emails, their first events (with the webhook
// calls they make, payloads built by views.ts emailEventCall), recipients and attachments, and the recipients reserved
// for them added to the teams' usage of the day. No rule is checked here: queueEmails (queue-emails.ts) has checked and
// decided everything before it calls this.
import { sql, type Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';
import { recordedEventsCtes } from './event-queries.ts';
import type { NewEmail } from './queries.ts';
import { usageAddition, type DayUsage, type UsageAfter } from './usage-queries.ts';
import { emailEventCall } from './views.ts';

/**
 * Stores the emails of the sends (each of one team), created at `now`, and adds `usage.added` to the
 * teams' rows of `usage.day`, in one statement; returns those rows as they then stand.
 */
export async function insertEmails(
  tx: Transaction<Database>,
  now: Date,
  sends: { teamId: number; emails: NewEmail[] }[],
  usage: { day: string; added: Map<number, DayUsage> },
): Promise<Map<number, DayUsage>> {
  const emails = sends.flatMap(({ teamId, emails }) => emails.map((e) => ({ ...e, teamId })));
  if (emails.length === 0) return new Map();
  const rows = emails.map((e) => ({
    id: e.id,
    team_id: e.teamId,
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
    campaign_id: e.campaignId,
    bulk: e.bulk,
    simulated: e.simulated,
    source: e.source ?? 'api',
    in_reply_to_id: e.inReplyToId,
    type: e.type,
    scheduled_at: e.scheduledAt,
    status: e.status,
    run_at: e.runAt,
    created_at: now,
    updated_at: now,
  }));
  let n = 0;
  const events = emails.flatMap((e) => {
    const email = {
      id: e.id,
      team_id: e.teamId,
      domain_id: e.domainId,
      campaign_id: e.campaignId,
      from: e.from,
      to: e.to,
      subject: e.subject,
      created_at: now,
    };
    return e.events.map((event) => ({
      n: n++,
      team_id: e.teamId,
      email_id: e.id,
      status: event.status,
      data: event.data ?? null,
      ...emailEventCall(email, event.status, event.data, now),
    }));
  });
  const recipients = emails.flatMap((e) =>
    e.recipients.map((address) => ({ team_id: e.teamId, email_id: e.id, address })),
  );
  const attachments = emails.flatMap((e) =>
    e.attachments.map((a, position) => ({
      email_id: e.id,
      position,
      filename: a.filename,
      content_id: a.contentId ?? null,
      hex: a.content.toString('hex'),
    })),
  );
  // Arrays travel as JSON, so the text never varies and the statement is prepared once per connection.
  // The result reads usage_after, so PostgreSQL runs it before the inserts (which nothing reads): the
  // usage rows are held from this statement's start to commit (bench/RESULTS.md, campaigns).
  const after = await sql<UsageAfter>`
    WITH new_emails AS (
      INSERT INTO emails (id, team_id, domain_id, api_key_id, "from", "to", cc, bcc, reply_to, subject, html, text, headers,
                          template_id, campaign_id, bulk, simulated, source, in_reply_to_id, type, scheduled_at, status, run_at, created_at, updated_at)
      SELECT e.id, e.team_id, e.domain_id, e.api_key_id, e."from", e."to", e.cc, e.bcc, e.reply_to, e.subject, e.html, e.text, e.headers,
             e.template_id, e.campaign_id, e.bulk, e.simulated, e.source, e.in_reply_to_id, e.type, e.scheduled_at, e.status, e.run_at, e.created_at, e.updated_at
      FROM jsonb_populate_recordset(NULL::emails, ${JSON.stringify(rows)}::jsonb) AS e
    ),
    recorded AS (
      SELECT r.n, r.team_id, r.email_id, r.status, r.data, NULL::text AS open_key, ${now}::timestamptz AS at,
             r.domain_id, r.type, r.payload
      FROM jsonb_to_recordset(${JSON.stringify(events)}::jsonb)
        AS r (n int, team_id int, email_id text, status text, data jsonb, domain_id int, type text, payload text)
    ),
    ${recordedEventsCtes('recorded')},
    new_recipients AS (
      INSERT INTO email_recipients (team_id, address, email_id)
      SELECT r.team_id, r.address, r.email_id
      FROM jsonb_to_recordset(${JSON.stringify(recipients)}::jsonb) AS r (team_id int, email_id text, address text)
    ),
    new_attachments AS (
      INSERT INTO email_attachments (email_id, position, filename, content, content_id)
      SELECT a.email_id, a.position, a.filename, decode(a.hex, 'hex'), a.content_id
      FROM jsonb_to_recordset(${JSON.stringify(attachments)}::jsonb)
        AS a (email_id text, position int, filename text, hex text, content_id text)
    ),
    usage_after AS (${usageAddition(usage.day, usage.added)})
    SELECT team_id, transactional, marketing FROM usage_after`.execute(tx);
  return new Map(after.rows.map((r) => [r.team_id, { transactional: r.transactional, marketing: r.marketing }]));
}
