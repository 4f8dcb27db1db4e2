// A received message's fields, parsed with mailparser (a maintained MIME parser that copes with
// broken MIME, legacy charsets and 8-bit headers). A message mailparser fails on is stored with what
// could be had (empty subject, no body), because the sender was already answered 250 and the
// original is kept for /raw. Two things throw instead: a message past the parser's limits
// (src/platform/mime-limits.ts), which mailparser would truncate or never finish, is
// UnreadableMessageError (kept as unreadable for the operator); a parse that outlives its deadline is
// ParseDeadlineError (retried, then kept as unreadable).
import type { AddressObject, ParsedMail } from 'mailparser';
import { lazy } from '../platform/lazy.ts';
import {
  PARSE_DEADLINE_MS,
  ParseDeadlineError,
  parseMimeWithin,
  UnreadableMessageError,
} from '../platform/mime-limits.ts';

export { ParseDeadlineError, UnreadableMessageError };

export interface ParsedAttachment {
  filename: string;
  contentType: string;
  content: Buffer;
  /** Content-ID without angle brackets (cid: references in the html). */
  contentId: string | null;
}

export interface ParsedInboundMessage {
  /** `Name <address>` or the bare address; '' when the message has no From. */
  from: string;
  /** The From address alone, lower case (contact lookup); null when there is none. */
  fromAddress: string | null;
  /** Every address of the From header, as written (DMARC: exactly one is needed). */
  fromAddresses: string[];
  to: string[];
  cc: string[];
  subject: string;
  text: string | null;
  /** As sent: sanitised later (sanitize-html.ts). */
  html: string | null;
  attachments: ParsedAttachment[];
  /** The message's own Message-ID, with angle brackets; null when missing. */
  messageId: string | null;
  /** In-Reply-To first, then References newest first: the ids this message answers. */
  answers: string[];
  /** Every header, parsed (the spam rules read a few). */
  headers: ParsedMail['headers'];
}

/** Longest header id kept: longer ones are hostile or broken and thread nothing. */
const MAX_ID_LENGTH = 998;

/** The mailboxes of an address header, groups opened. */
function mailboxesOf(field: AddressObject | AddressObject[] | undefined): { name: string; address: string }[] {
  const objects = field === undefined ? [] : Array.isArray(field) ? field : [field];
  const out: { name: string; address: string }[] = [];
  const walk = (entries: AddressObject['value']) => {
    for (const entry of entries) {
      if (entry.group !== undefined) walk(entry.group);
      else if (entry.address) out.push({ name: entry.name, address: entry.address });
    }
  };
  for (const object of objects) walk(object.value);
  return out;
}

/** `Name <address>`, or the bare address, per mailbox. */
const addressesOf = (field: AddressObject | AddressObject[] | undefined): string[] =>
  mailboxesOf(field).map((m) => (m.name ? `${m.name} <${m.address}>` : m.address));

function firstAddress(field: AddressObject | AddressObject[] | undefined): string | null {
  const object = Array.isArray(field) ? field[0] : field;
  const address = object?.value.find((entry) => entry.address)?.address;
  return address ? address.toLowerCase() : null;
}

/** `<id>` tokens of an id header, in order, deduplicated. */
export function messageIds(value: string | string[] | undefined): string[] {
  const text = Array.isArray(value) ? value.join(' ') : (value ?? '');
  const ids = text.match(/<[^<>\s]+>/g) ?? [];
  return [...new Set(ids.filter((id) => id.length <= MAX_ID_LENGTH))];
}

function attachmentsOf(parsed: ParsedMail): ParsedAttachment[] {
  return parsed.attachments.map((attachment, i) => ({
    filename: (attachment.filename ?? `attachment-${i + 1}`).slice(0, 255),
    contentType: attachment.contentType || 'application/octet-stream',
    content: attachment.content,
    contentId: attachment.contentId ? attachment.contentId.replace(/^<|>$/g, '') : null,
  }));
}

/** mailparser (with its MIME and charset packages), read at the first message received. */
const mailparser = lazy(() => import('mailparser'));

export async function parseInboundMessage(
  raw: Buffer,
  deadlineMs: number = PARSE_DEADLINE_MS,
): Promise<ParsedInboundMessage> {
  let parsed: ParsedMail;
  try {
    parsed = await parseMimeWithin(
      raw,
      async (bytes) =>
        (await mailparser()).simpleParser(bytes, {
          // cid: images stay cid: links (served from the attachment links), not data: URIs.
          keepCidLinks: true,
          skipTextToHtml: true,
          skipTextLinks: true,
          skipImageLinks: true,
        }),
      deadlineMs,
    );
  } catch (error) {
    if (error instanceof UnreadableMessageError || error instanceof ParseDeadlineError) throw error;
    return {
      from: '',
      fromAddress: null,
      fromAddresses: [],
      to: [],
      cc: [],
      subject: '',
      text: null,
      html: null,
      attachments: [],
      messageId: null,
      answers: [],
      headers: new Map(),
    };
  }
  // mailsplit stops at a header block over its limit and mailparser then answers no headers at all.
  if (parsed.headers === undefined)
    throw new UnreadableMessageError('the message has no header block the parser could read');
  return withoutNul(fieldsOf(parsed));
}

// PostgreSQL text and jsonb cannot hold NUL, and a broken or hostile message may carry one anywhere.
const noNul = (value: string) => value.replace(/\0/g, '');

// Encoded words can decode to CR or LF: a subject or From carrying one is a header injection for
// whoever builds a reply from it. Folded to spaces, as an unfolded header line would read.
export const oneLine = (value: string) => value.replace(/\r\n|[\r\n]/g, ' ');

function withoutNul(m: ParsedInboundMessage): ParsedInboundMessage {
  return {
    ...m,
    from: oneLine(noNul(m.from)),
    fromAddress: m.fromAddress === null ? null : oneLine(noNul(m.fromAddress)),
    fromAddresses: m.fromAddresses.map((address) => oneLine(noNul(address))),
    to: m.to.map((address) => oneLine(noNul(address))),
    cc: m.cc.map((address) => oneLine(noNul(address))),
    subject: oneLine(noNul(m.subject)),
    text: m.text === null ? null : noNul(m.text),
    html: m.html === null ? null : noNul(m.html),
    attachments: m.attachments.map((a) => ({
      ...a,
      filename: noNul(a.filename),
      contentType: noNul(a.contentType),
      contentId: a.contentId === null ? null : noNul(a.contentId),
    })),
    messageId: m.messageId === null ? null : noNul(m.messageId),
    answers: m.answers.map(noNul),
  };
}

function fieldsOf(parsed: ParsedMail): ParsedInboundMessage {
  const own = messageIds(parsed.messageId);
  const inReplyTo = messageIds(parsed.inReplyTo);
  const references = messageIds(parsed.references).reverse();
  return {
    from: addressesOf(parsed.from)[0] ?? parsed.from?.text ?? '',
    fromAddress: firstAddress(parsed.from),
    fromAddresses: mailboxesOf(parsed.from).map((m) => m.address),
    to: addressesOf(parsed.to),
    cc: addressesOf(parsed.cc),
    subject: parsed.subject ?? '',
    // Absent parts are undefined or false, whatever the types say.
    text: typeof parsed.text === 'string' && parsed.text !== '' ? parsed.text : null,
    html: typeof parsed.html === 'string' && parsed.html !== '' ? parsed.html : null,
    attachments: attachmentsOf(parsed),
    messageId: own[0] ?? null,
    answers: [...new Set([...inReplyTo, ...references])],
    headers: parsed.headers,
  };
}
