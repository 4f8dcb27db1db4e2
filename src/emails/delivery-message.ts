// The signed message of one stored email: html and text were rendered when it was sent, so this only
// assembles headers and attachments (Bcc stays out: envelope only) and DKIM-signs with the domain key.
// Open and click tracking, when the domain has it, changes the HTML here: before MIME and DKIM.
// Mail with only HTML gets a text part made from the HTML as stored (html-to-text), here too.
import type { SendingDomain } from '../domains/index.ts';
import type { Secrets } from '../platform/crypto.ts';
import { lazy } from '../platform/lazy.ts';
import { addTracking } from '../tracking/index.ts';
import { signMessage } from './dkim-sign.ts';
import type { MimeAttachment } from './attachment-encoding.ts';
import { buildMessage, formatMessageId } from './mime.ts';
import type { EmailRow } from './queries.ts';
import { listOf } from './recipients.ts';
import { UNSUBSCRIBE_PLACEHOLDER } from './unsubscribe-link.ts';

/** html-to-text, read at the first HTML-only message built. */
const htmlToText = lazy(async () => (await import('html-to-text')).convert);

/** The text version of an HTML body: links kept as `text [url]`, images left out. */
export async function textOfHtml(html: string): Promise<string> {
  const convert = await htmlToText();
  return convert(html, {
    wordwrap: 78,
    selectors: [
      { selector: 'img', format: 'skip' },
      { selector: 'a', options: { hideLinkHrefIfSameAsText: true } },
    ],
  });
}

// A campaign or a notification sends one HTML body many times: its text version is made once.
const recentTexts = new Map<string, string>();
const RECENT_TEXTS = 64;

async function cachedTextOfHtml(html: string): Promise<string> {
  let text = recentTexts.get(html);
  if (text === undefined) {
    text = await textOfHtml(html);
    if (recentTexts.size >= RECENT_TEXTS) recentTexts.delete(recentTexts.keys().next().value!);
    recentTexts.set(html, text);
  }
  return text;
}

/** On Herald's own mail domain and made from the email id alone, so every retry carries the same one. */
export function messageIdOf(emailId: string, mailDomain: string): string {
  return formatMessageId(emailId, mailDomain);
}

interface MessageExtras {
  attachments: MimeAttachment[];
  /** The Message-ID of the email this one answers, when it is the team's and was sent. */
  inReplyTo: string | null;
  /** One-click unsubscribe URL for MARKETING mail to one recipient. */
  listUnsubscribe: string | null;
  /** A `mailto:` URI List-Unsubscribe offers after that URL (RFC 2369). */
  listUnsubscribeMailto?: string | null;
  /** What tracking links are signed with; `recipient` only for a copy to one recipient (MARKETING). */
  tracking?: { secrets: Secrets; publicUrl: string; recipient: string | null };
}

/** The HTML as delivered: with the pixel and rewritten links when the domain tracks (see src/tracking). */
function deliveredHtml(email: EmailRow, domain: SendingDomain, extras: MessageExtras): string | null {
  const { tracking } = extras;
  if (email.html === null || tracking === undefined || !(domain.openTracking || domain.clickTracking))
    return email.html;
  return addTracking(email.html, {
    secrets: tracking.secrets,
    publicUrl: tracking.publicUrl,
    email: { teamId: email.team_id, emailId: email.id, recipient: tracking.recipient },
    open: domain.openTracking,
    click: domain.clickTracking,
    keep: [extras.listUnsubscribe, UNSUBSCRIBE_PLACEHOLDER],
  });
}

export async function buildSignedMessage(
  email: EmailRow,
  domain: SendingDomain,
  messageId: string,
  now: Date,
  extras: MessageExtras,
): Promise<Buffer> {
  const raw = await buildMessage({
    from: email.from,
    to: listOf(email.to),
    cc: listOf(email.cc),
    replyTo: listOf(email.reply_to),
    subject: email.subject,
    html: deliveredHtml(email, domain, extras),
    // Mail with only HTML gets a text part too (spam filters and text-only readers expect one).
    text: email.text ?? (email.html === null ? null : await cachedTextOfHtml(email.html)),
    headers: email.headers ?? {},
    attachments: extras.attachments,
    messageId,
    date: now,
    inReplyTo: extras.inReplyTo,
    listUnsubscribe: extras.listUnsubscribe,
    listUnsubscribeMailto: extras.listUnsubscribeMailto ?? null,
  });
  return signMessage(
    raw,
    { domain: domain.name, selector: domain.dkimSelector, privateKeyPem: domain.dkimPrivateKey },
    now,
  );
}
