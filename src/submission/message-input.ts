// A submitted message as the body of POST /v1/emails, so that queueEmails makes of it exactly the
// email the API would have made: from, to, cc and reply-to from the headers; every envelope
// recipient the headers do not name becomes bcc (that is what Bcc means in SMTP); subject, text,
// html; attachments, inline ones with their Content-ID; the custom X- headers. The message's own
// Message-ID and Date are not kept: Herald writes its own, as for every email.
import type { AddressObject, EmailAddress, ParsedMail } from 'mailparser';
import { detectExtension } from 'nodemailer/lib/mime-funcs';
import type { SendEmailInput } from '../emails/index.ts';
import { SmtpReply } from './smtp-replies.ts';

/** The body of the send, and the Idempotency-Key the message carried, if any. */
export interface SubmittedInput {
  input: SendEmailInput;
  idempotencyKey: string | null;
}

/** Idempotency-Key, as the HTTP header; Resend's own name for it too (its SMTP relay reads that one). */
const IDEMPOTENCY_HEADERS = ['idempotency-key', 'resend-idempotency-key'];
/** The API's header rules (emails/schemas.ts): a token name, a value of 1 to 998 characters on one line. */
const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]{1,76}$/;
const HEADER_VALUE_MAX = 998;
/** X- headers Herald writes itself (emails/mime.ts RESERVED_HEADERS): a client's would fail delivery. */
const HEADERS_HERALD_WRITES = new Set(['x-mailer']);
/** The API's contentId rule (emails/schemas.ts). */
const CONTENT_ID = /^[\x21-\x3b\x3d\x3f-\x7e]{1,255}$/;
const FILENAME_MAX = 255;

const invalid = (text: string) => new SmtpReply(554, '5.6.0', text, 'invalid');

function mailboxesOf(field: AddressObject | AddressObject[] | undefined): EmailAddress[] {
  const objects = field === undefined ? [] : Array.isArray(field) ? field : [field];
  // Groups (`undisclosed-recipients:;`) name their members, or nobody.
  return objects.flatMap((o) => o.value).flatMap((a) => (a.group ? a.group : [a]));
}

/** `Name <address>` in the API's form: a quoted name without quotes or backslashes in it. */
function formatted({ name, address }: EmailAddress): string {
  const clean = name.replace(/["\\\r\n]/g, '').trim();
  return clean === '' ? address! : `"${clean}" <${address!}>`;
}

/** One address as a string, several as a list (the API's `to` as sent); undefined for none. */
function field(mailboxes: EmailAddress[]): string | string[] | undefined {
  const list = mailboxes.filter((m) => m.address).map(formatted);
  if (list.length === 0) return undefined;
  return list.length === 1 ? list[0] : list;
}

/** The headers as written (folding undone), first of each name. */
function rawHeaders(mail: ParsedMail): Map<string, string> {
  const headers = new Map<string, string>();
  for (const { key, line } of mail.headerLines) {
    if (headers.has(key)) continue;
    const colon = line.indexOf(':');
    headers.set(
      key,
      line
        .slice(colon + 1)
        .replace(/\r?\n[ \t]/g, ' ')
        .trim(),
    );
  }
  return headers;
}

/** The custom X- headers that the API would take; another one is left out rather than refusing the message. */
function customHeaders(mail: ParsedMail, raw: Map<string, string>): Record<string, string> | undefined {
  const kept: Record<string, string> = {};
  for (const { key, line } of mail.headerLines) {
    if (!key.startsWith('x-') || HEADERS_HERALD_WRITES.has(key)) continue;
    const name = line.slice(0, line.indexOf(':')).trim();
    const value = raw.get(key)!;
    if (!HEADER_NAME.test(name) || value === '' || value.length > HEADER_VALUE_MAX || name in kept) continue;
    kept[name] = value;
  }
  return Object.keys(kept).length === 0 ? undefined : kept;
}

function attachmentsOf(mail: ParsedMail): SendEmailInput['attachments'] {
  if (mail.attachments.length === 0) return undefined;
  return mail.attachments.map((attachment, i) => {
    const cid = attachment.cid ?? attachment.contentId?.replace(/^<|>$/g, '');
    const inline =
      cid !== undefined && CONTENT_ID.test(cid) && (attachment.related || attachment.contentDisposition === 'inline');
    const extension = detectExtension(attachment.contentType || 'application/octet-stream');
    const filename = (attachment.filename ?? `${inline ? 'inline' : 'attachment'}-${i + 1}.${extension}`)
      .replace(/[\r\n]+/g, ' ')
      .slice(0, FILENAME_MAX);
    return {
      filename,
      content: attachment.content.toString('base64'),
      ...(inline ? { contentId: cid } : {}),
    };
  });
}

/**
 * The send body of a parsed message and its envelope recipients. A message without one From
 * mailbox is refused here (554 5.6.0); every other rule is queueEmails', applied as to the API.
 */
export function submittedInput(mail: ParsedMail, envelopeRecipients: string[]): SubmittedInput {
  const from = mailboxesOf(mail.from).filter((m) => m.address);
  if (from.length !== 1) throw invalid('The message needs a From header naming one mailbox');
  const to = mailboxesOf(mail.to);
  const cc = mailboxesOf(mail.cc);
  const named = new Set([...to, ...cc].map((m) => m.address?.toLowerCase()));
  const bcc = [...new Set(envelopeRecipients.map((r) => r.toLowerCase()))].filter((r) => !named.has(r));
  const raw = rawHeaders(mail);
  const idempotencyKey = IDEMPOTENCY_HEADERS.map((name) => raw.get(name)).find((v) => v !== undefined) ?? null;
  const input: SendEmailInput = {
    from: formatted(from[0]!),
    to: field(to),
    cc: field(cc),
    bcc: bcc.length === 0 ? undefined : bcc.length === 1 ? bcc[0] : bcc,
    replyTo: field(mailboxesOf(mail.replyTo)),
    subject: mail.subject,
    text: mail.text || undefined,
    html: typeof mail.html === 'string' && mail.html !== '' ? mail.html : undefined,
    headers: customHeaders(mail, raw),
    attachments: attachmentsOf(mail),
  };
  // Fields left out, not set to undefined: the body is hashed for Idempotency-Key as JSON, and reads as the API's would.
  for (const key of Object.keys(input) as (keyof SendEmailInput)[]) if (input[key] === undefined) delete input[key];
  return { input, idempotencyKey };
}
