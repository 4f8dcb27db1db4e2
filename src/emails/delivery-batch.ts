// What the emails of one claimed batch need from the database besides their own rows, read with a
// few statements for the whole batch instead of several per email: each sending domain (with its
// decrypted DKIM key) once, the suppressions among all recipients, the attachments, the Message-IDs
// that replies answer, and, for retries only, what earlier attempts already settled (the statements:
// delivery-queries.ts).
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { builtinSendingDomain, getSendingDomain, type SendingDomain } from '../domains/index.ts';
import type { Secrets } from '../platform/crypto.ts';
import type { MimeAttachment } from './attachment-encoding.ts';
import { messageIdOf } from './delivery-message.ts';
import { progressOf, type DeliveryProgress } from './delivery-progress.ts';
import { findListedAddresses, readAnsweredEmails, readAttachmentsOf, readSettledEventsOf } from './delivery-queries.ts';
import type { EmailRow } from './queries.ts';
import { distinctRecipients, domainOf, parseAddress } from './recipients.ts';

export interface BatchData {
  /** Keyed by `${teamId}:${domain}`; null when the domain can no longer send. */
  domains: Map<string, SendingDomain | null>;
  /** Keyed by `${teamId}:${address}`. */
  suppressed: Set<string>;
  /** Unsubscribed from the team's MARKETING mail; keyed like suppressed, read for MARKETING emails only. */
  unsubscribed: Set<string>;
  attachments: Map<string, MimeAttachment[]>;
  /** Message-ID of the answered email, keyed by the replying email's id. */
  inReplyTo: Map<string, string>;
  /** Only for emails attempted before. */
  progress: Map<string, DeliveryProgress>;
}

const NO_PROGRESS: DeliveryProgress = {
  accepted: new Set(),
  bounced: new Set(),
  suppressed: new Set(),
  delayed: false,
};

export function fromDomainOf(email: EmailRow): string | null {
  const address = parseAddress(email.from)?.address;
  return address === undefined ? null : domainOf(address);
}

/** A per-team key for a domain or an address. */
export const domainKey = (teamId: number, name: string) => `${teamId}:${name}`;

export function progressFor(data: BatchData, emailId: string): DeliveryProgress {
  return data.progress.get(emailId) ?? NO_PROGRESS;
}

export async function readBatchData(
  db: Kysely<Database>,
  secrets: Secrets,
  mailDomain: string,
  rows: EmailRow[],
): Promise<BatchData> {
  const domains = new Map<string, SendingDomain | null>();
  for (const row of rows) {
    const name = fromDomainOf(row);
    if (name === null) continue;
    const key = domainKey(row.team_id, name);
    if (domains.has(key)) continue;
    const domain = await getSendingDomain(db, secrets, row.team_id, name);
    // Stored without a domain row from HERALD_MAIL_DOMAIN: the built-in domain (src/domains/builtin-domain.ts).
    const builtin = domain === null && row.domain_id === null && name === mailDomain;
    domains.set(key, builtin ? builtinSendingDomain(secrets, row.team_id, mailDomain) : domain);
  }
  const ids = rows.map((row) => row.id);
  const pairs = rows.flatMap((row) =>
    distinctRecipients([row.to, row.cc, row.bcc]).map((address) => ({ teamId: row.team_id, address })),
  );
  const marketingPairs = rows
    .filter((row) => row.type === 'MARKETING')
    .flatMap((row) =>
      distinctRecipients([row.to, row.cc, row.bcc]).map((address) => ({ teamId: row.team_id, address })),
    );
  const [suppressions, unsubscribes, attachments, answered, events] = await Promise.all([
    findListedAddresses(db, 'suppressions', pairs),
    findListedAddresses(db, 'unsubscribes', marketingPairs),
    readAttachmentsOf(db, ids),
    answeredMessageIds(db, mailDomain, rows),
    rows.some((row) => row.attempts > 1)
      ? readSettledEventsOf(
          db,
          rows.filter((row) => row.attempts > 1).map((row) => row.id),
        )
      : [],
  ]);
  const attachmentsByEmail = new Map<string, MimeAttachment[]>();
  for (const a of attachments) {
    // PGlite returns bytea as a Uint8Array, pg as a Buffer; MailComposer wants a Buffer.
    const list = attachmentsByEmail.get(a.email_id) ?? [];
    list.push({ filename: a.filename, content: Buffer.from(a.content), contentId: a.content_id });
    attachmentsByEmail.set(a.email_id, list);
  }
  const progress = new Map<string, DeliveryProgress>();
  for (const row of rows) {
    if (row.attempts > 1) progress.set(row.id, progressOf(events.filter((e) => e.email_id === row.id)));
  }
  return {
    domains,
    suppressed: new Set(suppressions.map((s) => domainKey(s.team_id, s.email))),
    unsubscribed: new Set(unsubscribes.map((s) => domainKey(s.team_id, s.email))),
    attachments: attachmentsByEmail,
    inReplyTo: answered,
    progress,
  };
}

/**
 * The Message-IDs of the emails the batch's replies answer, only the same team's. A Message-ID is
 * made from the email id, so a reply sent before its original still threads.
 */
async function answeredMessageIds(
  db: Kysely<Database>,
  mailDomain: string,
  rows: EmailRow[],
): Promise<Map<string, string>> {
  const replies = rows.filter((row) => row.in_reply_to_id !== null);
  const out = new Map<string, string>();
  if (replies.length === 0) return out;
  const answered = await readAnsweredEmails(
    db,
    replies.map((row) => row.in_reply_to_id!),
  );
  for (const reply of replies) {
    const match = answered.find((a) => a.id === reply.in_reply_to_id && a.team_id === reply.team_id);
    if (match) out.set(reply.id, match.message_id ?? messageIdOf(match.id, mailDomain));
  }
  return out;
}
