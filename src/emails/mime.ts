// Builds the raw RFC 5322 message Herald hands to a mail transport, with nodemailer's MailComposer
// (MIME structure, encodings, folding), CRLF line ends throughout and ASCII attachments as readable
// text (attachment-encoding.ts). Bcc is never an input here: blind recipients exist only in the SMTP
// envelope, so no header can leak them. Custom headers may add to a message, never replace what Herald
// itself writes (addresses, identity, structure, signature).
import MailComposer from 'nodemailer/lib/mail-composer';
import { composerAttachment, type MimeAttachment, withCrlfLineEnds } from './attachment-encoding.ts';

export interface MimeInput {
  /** `"Name" <a@b>` or a bare address. */
  from: string;
  to: string[];
  cc?: string[];
  replyTo?: string[];
  subject: string;
  html?: string | null;
  text?: string | null;
  /** Custom headers; a structural name (see `RESERVED_HEADERS`) is refused with `MimeHeaderError`. */
  headers?: Record<string, string>;
  attachments?: MimeAttachment[];
  /** `<id@domain>`, see `formatMessageId`. */
  messageId: string;
  /** Comes from the clock, so tests control it. */
  date: Date;
  /** A Message-ID this one answers; also written as References. */
  inReplyTo?: string | null;
  /** One-click unsubscribe URL (RFC 8058): List-Unsubscribe + List-Unsubscribe-Post. */
  listUnsubscribe?: string | null;
  /** A `mailto:` URI listed after the URL in List-Unsubscribe (RFC 2369), for receivers that unsubscribe by mail. */
  listUnsubscribeMailto?: string | null;
}

export class MimeHeaderError extends Error {
  override name = 'MimeHeaderError';
  readonly header: string;

  constructor(header: string, reason: string) {
    super(`header ${JSON.stringify(header)} ${reason}`);
    this.header = header;
  }
}

/** Lower-case names a custom header may not set: Herald writes them, or they decide delivery or trust. */
const RESERVED_HEADERS: ReadonlySet<string> = new Set([
  'from',
  'sender',
  'to',
  'cc',
  'bcc',
  'reply-to',
  'subject',
  'date',
  'message-id',
  'in-reply-to',
  'references',
  'mime-version',
  'content-type',
  'content-transfer-encoding',
  'content-disposition',
  'content-id',
  'dkim-signature',
  'arc-seal',
  'arc-message-signature',
  'arc-authentication-results',
  'authentication-results',
  'received',
  'return-path',
  'list-unsubscribe',
  'list-unsubscribe-post',
  'x-mailer',
]);

// RFC 5322 field names: printable US-ASCII except colon.
const FIELD_NAME = /^[\x21-\x39\x3b-\x7e]+$/;

/** Refuses reserved, malformed or injected headers; returns them unchanged otherwise. */
function checkCustomHeaders(headers: Record<string, string>): Record<string, string> {
  for (const [name, value] of Object.entries(headers)) {
    if (!FIELD_NAME.test(name)) throw new MimeHeaderError(name, 'is not a valid header name');
    if (RESERVED_HEADERS.has(name.toLowerCase()))
      throw new MimeHeaderError(name, 'is set by Herald and cannot be overridden');
    if (/[\r\n]/.test(value)) throw new MimeHeaderError(name, 'must not contain line breaks');
  }
  return headers;
}

/** `<localPart@domain>` for a Message-ID header. */
export function formatMessageId(localPart: string, domain: string): string {
  return `<${localPart}@${domain}>`;
}

function angleBracketed(id: string): string {
  const trimmed = id.trim();
  return trimmed.startsWith('<') ? trimmed : `<${trimmed}>`;
}

function checkUnsubscribeUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new MimeHeaderError('List-Unsubscribe', 'needs an absolute URL');
  }
  // RFC 8058 one-click needs an HTTPS URI; http is accepted for self-hosted test set-ups.
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') {
    throw new MimeHeaderError('List-Unsubscribe', 'needs an http(s) URL');
  }
  return parsed.href;
}

function checkUnsubscribeMailto(uri: string): string {
  // Inside <> in a header: printable ASCII, no brackets or spaces that would end the URI early.
  if (!/^mailto:[\x21-\x3b\x3d\x3f-\x7e]+$/i.test(uri))
    throw new MimeHeaderError('List-Unsubscribe', 'needs a mailto: URI without spaces or angle brackets');
  return uri;
}

/** RFC 5322 2.1.1: lines SHOULD stay within 78 characters (CRLF excluded). */
const FOLD_AT = 78;

/**
 * `value` folded (RFC 5322 2.2.3) before whitespace so that the lines of `name: value` stay within 78
 * characters where a break exists; a longer token stays whole on its own line. For prepared headers,
 * which nodemailer writes as given; done here so the DKIM signature covers the folded form.
 */
export function foldHeaderValue(name: string, value: string): string {
  const [first = '', ...rest] = value.trim().match(/^\S+|[ \t]+\S+/g) ?? [];
  const lines = [first];
  let length = name.length + 2 + first.length;
  for (const word of rest) {
    if (length + word.length > FOLD_AT) {
      lines.push(word);
      length = word.length;
    } else {
      lines[lines.length - 1] += word;
      length += word.length;
    }
  }
  return lines.join('\r\n');
}

/** RFC 2369 List-Unsubscribe: the one-click URL first, then the mailto: URI, each in <>. */
function listUnsubscribeHeaders(url: string | null | undefined, mailto: string | null | undefined) {
  const uris = [
    ...(url ? [`<${checkUnsubscribeUrl(url)}>`] : []),
    ...(mailto ? [`<${checkUnsubscribeMailto(mailto)}>`] : []),
  ];
  if (uris.length === 0) return {};
  // Prepared: written as is, so a URI inside <> is never encoded or split.
  return {
    'List-Unsubscribe': { prepared: true, value: foldHeaderValue('List-Unsubscribe', uris.join(', ')) },
    // RFC 8058: one-click needs the URL, not the mailto: URI.
    ...(url ? { 'List-Unsubscribe-Post': { prepared: true, value: 'List-Unsubscribe=One-Click' } } : {}),
  };
}

export async function buildMessage(input: MimeInput): Promise<Buffer> {
  const headers: Record<string, string | { prepared: boolean; value: string }> = {
    ...checkCustomHeaders(input.headers ?? {}),
    ...listUnsubscribeHeaders(input.listUnsubscribe, input.listUnsubscribeMailto),
  };
  const composer = new MailComposer({
    from: input.from,
    to: input.to,
    cc: input.cc && input.cc.length > 0 ? input.cc : undefined,
    replyTo: input.replyTo && input.replyTo.length > 0 ? input.replyTo : undefined,
    subject: input.subject,
    // nodemailer passes 7bit bodies through as given; the wire wants CRLF line ends (RFC 5322 2.3).
    text: input.text == null ? undefined : withCrlfLineEnds(input.text),
    html: input.html == null ? undefined : withCrlfLineEnds(input.html),
    messageId: angleBracketed(input.messageId),
    date: input.date,
    inReplyTo: input.inReplyTo ? angleBracketed(input.inReplyTo) : undefined,
    references: input.inReplyTo ? angleBracketed(input.inReplyTo) : undefined,
    headers,
    attachments: (input.attachments ?? []).map(composerAttachment),
    // No "X-Mailer: Nodemailer": the message is Herald's.
    xMailer: false,
  });
  return composer.compile().build();
}
