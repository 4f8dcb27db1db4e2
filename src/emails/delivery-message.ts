// The signed message of one stored email: html and text were rendered when it was sent, so this only
// assembles headers and attachments (Bcc stays out: envelope only) and DKIM-signs with the domain key.
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { SendingDomain } from '../domains/index.ts';
import { signMessage } from './dkim-sign.ts';
import { buildMessage, formatMessageId } from './mime.ts';
import type { EmailRow } from './queries.ts';
import { listOf } from './recipients.ts';

async function attachmentsOf(db: Kysely<Database>, emailId: string) {
  const rows = await db.selectFrom('email_attachments').select(['filename', 'content']).where('email_id', '=', emailId).orderBy('position', 'asc').execute();
  // PGlite returns bytea as a Uint8Array, pg as a Buffer; MailComposer wants a Buffer.
  return rows.map((row) => ({ filename: row.filename, content: Buffer.from(row.content) }));
}

/** The Message-ID of the email this one answers, when it is the team's and was sent. */
async function inReplyTo(db: Kysely<Database>, email: EmailRow): Promise<string | null> {
  if (email.in_reply_to_id === null) return null;
  const row = await db.selectFrom('emails').select('message_id').where('team_id', '=', email.team_id).where('id', '=', email.in_reply_to_id).executeTakeFirst();
  return row?.message_id ?? null;
}

export function messageIdOf(emailId: string, mailDomain: string): string {
  return formatMessageId(emailId, mailDomain);
}

export async function buildSignedMessage(db: Kysely<Database>, email: EmailRow, domain: SendingDomain, messageId: string, now: Date): Promise<Buffer> {
  const raw = await buildMessage({
    from: email.from,
    to: listOf(email.to),
    cc: listOf(email.cc),
    replyTo: listOf(email.reply_to),
    subject: email.subject,
    html: email.html,
    text: email.text,
    headers: email.headers ?? {},
    attachments: await attachmentsOf(db, email.id),
    messageId,
    date: now,
    inReplyTo: await inReplyTo(db, email),
    // MARKETING mail should carry List-Unsubscribe (RFC 8058), but Herald has no unsubscribe endpoint
    // yet to point it at; it is added when that endpoint exists.
    listUnsubscribe: null,
  });
  return signMessage(raw, { domain: domain.name, selector: domain.dkimSelector, privateKeyPem: domain.dkimPrivateKey }, now);
}
