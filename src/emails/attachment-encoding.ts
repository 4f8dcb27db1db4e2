// How an attachment's bytes travel. ASCII text goes out readable, as 7bit, or quoted-printable when a
// line is longer than RFC 5322 allows or a control character needs escaping: content filters score
// base64-wrapped plain text as suspicious. A NUL or an 8-bit byte means binary (or non-ASCII): base64.
// Text (text/* only) travels with CRLF line ends (RFC 2046 4.1.1 canonical form), so LF becomes CRLF.
import type { MailComposerAttachment } from 'nodemailer/lib/mail-composer';
import { detectMimeType } from 'nodemailer/lib/mime-funcs';
import MimeNode from 'nodemailer/lib/mime-node';
import { encode as encodeQuotedPrintable, wrap as wrapQuotedPrintable } from 'nodemailer/lib/qp';

export interface MimeAttachment {
  filename: string;
  content: Buffer;
  /** Defaults to the type nodemailer infers from the file name. */
  contentType?: string;
  /** An inline part's Content-ID (no angle brackets): sent inline, in the HTML's multipart/related. */
  contentId?: string | null;
}

// eslint-disable-next-line no-control-regex -- NUL is what marks binary content
const BINARY_BYTE = /[\x00\x80-\xff]/;
/** Controls other than tab, CR and LF are not printable text: quoted-printable escapes them (=0C). */
// eslint-disable-next-line no-control-regex -- the control characters are what is looked for
const UNPRINTABLE = /[\x01-\x08\x0b\x0c\x0e-\x1f\x7f]/;
/** RFC 5322 2.1.1: no line over 998 octets, CRLF excluded. */
const OVER_LONG_LINE = /[^\r\n]{999}/;

/** `text` with every line break (CRLF, LF or a lone CR) written as CRLF. */
export function withCrlfLineEnds(text: string): string {
  return text.replace(/\r\n|\r|\n/g, '\r\n');
}

/**
 * The attachment as MailComposer takes it. nodemailer writes every attachment as base64 and, for text/*,
 * second-guesses an explicit 7bit (lines over 76, bodies over 128 KiB), so ASCII text goes in as a
 * prepared part: nodemailer still writes its headers (file name encoding included), we write the body.
 */
export function composerAttachment(attachment: MimeAttachment): MailComposerAttachment {
  const contentType = attachment.contentType ?? detectMimeType(attachment.filename);
  // An inline part goes as nodemailer places it: beside the HTML it belongs to, with its Content-ID.
  if (attachment.contentId) {
    return { filename: attachment.filename, content: attachment.content, contentType, cid: attachment.contentId };
  }
  const bytes = attachment.content.toString('latin1');
  // Only text/* has a canonical CRLF form (RFC 2046 4.1.1): other types keep their bytes exactly, in base64.
  if (!contentType.toLowerCase().startsWith('text/') || BINARY_BYTE.test(bytes)) {
    return { filename: attachment.filename, content: attachment.content, contentType };
  }
  const text = withCrlfLineEnds(bytes);
  const encoding = UNPRINTABLE.test(text) || OVER_LONG_LINE.test(text) ? 'quoted-printable' : '7bit';
  const body = encoding === '7bit' ? text : wrapQuotedPrintable(encodeQuotedPrintable(text), 76);
  // A child node: a root one would also get Date, Message-ID and MIME-Version.
  const part = new MimeNode('multipart/mixed').createChild(contentType, { filename: attachment.filename });
  part.setHeader('Content-Disposition', 'attachment');
  part.setHeader('Content-Transfer-Encoding', encoding);
  return { raw: `${part.buildHeaders()}\r\n\r\n${body}` };
}
