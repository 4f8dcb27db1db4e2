// Builds the raw RFC 5322 message Herald hands to a mail transport, with nodemailer's MailComposer
// (MIME structure, encodings, folding). Bcc is never an input here: blind recipients exist only in
// the SMTP envelope, so no header can leak them. Custom headers may add to a message, never replace
// what Herald itself writes (addresses, identity, structure, signature).
import MailComposer from 'nodemailer/lib/mail-composer';

interface MimeAttachment {
  filename: string;
  content: Buffer;
  /** Defaults to the type nodemailer infers from the file name. */
  contentType?: string;
}

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

export async function buildMessage(input: MimeInput): Promise<Buffer> {
  const headers: Record<string, string | { prepared: boolean; value: string }> = {
    ...checkCustomHeaders(input.headers ?? {}),
  };
  if (input.listUnsubscribe) {
    // Prepared: written as is, so the URL inside <> is never encoded or split.
    headers['List-Unsubscribe'] = { prepared: true, value: `<${checkUnsubscribeUrl(input.listUnsubscribe)}>` };
    headers['List-Unsubscribe-Post'] = { prepared: true, value: 'List-Unsubscribe=One-Click' };
  }
  const composer = new MailComposer({
    from: input.from,
    to: input.to,
    cc: input.cc && input.cc.length > 0 ? input.cc : undefined,
    replyTo: input.replyTo && input.replyTo.length > 0 ? input.replyTo : undefined,
    subject: input.subject,
    text: input.text ?? undefined,
    html: input.html ?? undefined,
    messageId: angleBracketed(input.messageId),
    date: input.date,
    inReplyTo: input.inReplyTo ? angleBracketed(input.inReplyTo) : undefined,
    references: input.inReplyTo ? angleBracketed(input.inReplyTo) : undefined,
    headers,
    attachments: (input.attachments ?? []).map((attachment) => ({
      filename: attachment.filename,
      content: attachment.content,
      ...(attachment.contentType ? { contentType: attachment.contentType } : {}),
    })),
    // No "X-Mailer: Nodemailer": the message is Herald's.
    xMailer: false,
  });
  return composer.compile().build();
}
