// The signed message of one stored email: html and text were rendered when it was sent, so this only
// assembles headers and attachments (Bcc stays out: envelope only) and DKIM-signs with the domain key.
import type { SendingDomain } from '../domains/index.ts';
import { signMessage } from './dkim-sign.ts';
import { buildMessage, formatMessageId } from './mime.ts';
import type { EmailRow } from './queries.ts';
import { listOf } from './recipients.ts';

export function messageIdOf(emailId: string, mailDomain: string): string {
  return formatMessageId(emailId, mailDomain);
}

export interface MessageExtras {
  attachments: { filename: string; content: Buffer }[];
  /** The Message-ID of the email this one answers, when it is the team's and was sent. */
  inReplyTo: string | null;
  /** One-click unsubscribe URL for MARKETING mail to one recipient. */
  listUnsubscribe: string | null;
}

export async function buildSignedMessage(email: EmailRow, domain: SendingDomain, messageId: string, now: Date, extras: MessageExtras): Promise<Buffer> {
  const raw = await buildMessage({
    from: email.from,
    to: listOf(email.to),
    cc: listOf(email.cc),
    replyTo: listOf(email.reply_to),
    subject: email.subject,
    html: email.html,
    text: email.text,
    headers: email.headers ?? {},
    attachments: extras.attachments,
    messageId,
    date: now,
    inReplyTo: extras.inReplyTo,
    listUnsubscribe: extras.listUnsubscribe,
  });
  return signMessage(raw, { domain: domain.name, selector: domain.dkimSelector, privateKeyPem: domain.dkimPrivateKey }, now);
}
