// A light reader for the common shape of a report: a top-level multipart/report whose parts are
// single-level leaves (text/plain, message/delivery-status or message/feedback-report, and the
// original as message/rfc822 or text/rfc822-headers). mailparser's simpleParser does much work a small
// DSN does not need (streams, a hash per attachment, address parsing we do not use); this reads the
// same parts directly. It answers only when it is sure to see what simpleParser would
// see; anything unusual (nested multiparts, HTML, charsets other than UTF-8/ASCII, RFC 2231
// parameters, format=flowed, unknown transfer encodings) is null, and the caller uses simpleParser.

/** What parse-report.ts needs of a message, as simpleParser would give it. */
export interface ReportView {
  /** report-type of a top-level multipart/report, lower-cased; null for anything else. */
  reportType: string | null;
  /** The inline text/plain parts, decoded, LF line endings, joined by '\n' (mailparser's `text`). */
  text: string;
  /** The other leaves, in order, content transfer-decoded and read as UTF-8. */
  attachments: { contentType: string; content: string }[];
}

interface Part {
  headers: Map<string, string>;
  body: string;
}

const ASCII_OR_UTF8 = new Set(['ascii', 'usascii', 'utf8']);

/** Header block -> lower-cased name -> first value, folded lines joined (RFC 5322 2.2.3). */
function readHeaders(block: string): Map<string, string> {
  const headers = new Map<string, string>();
  const unfolded = block.replace(/\r?\n(?=[ \t])/g, '');
  for (const line of unfolded.split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    if (!headers.has(name)) headers.set(name, line.slice(colon + 1).trim());
  }
  return headers;
}

/** Splits at the first empty line; a message with no body is all headers. */
function splitHeaderBody(text: string): Part {
  const blank = /\r?\n\r?\n/.exec(text);
  if (text.startsWith('\r\n') || text.startsWith('\n'))
    return { headers: new Map(), body: text.slice(text.indexOf('\n') + 1) };
  if (blank === null) return { headers: readHeaders(text), body: '' };
  return { headers: readHeaders(text.slice(0, blank.index)), body: text.slice(blank.index + blank[0].length) };
}

interface ContentType {
  type: string;
  params: Map<string, string>;
}

/** `type/subtype; name=value; name="quoted value"`; null for what we do not read here (RFC 2231). */
function readContentType(value: string | undefined): ContentType | null {
  if (value === undefined) return { type: 'text/plain', params: new Map() };
  const semicolon = value.indexOf(';');
  const type = (semicolon < 0 ? value : value.slice(0, semicolon)).trim().toLowerCase();
  const params = new Map<string, string>();
  const rest = semicolon < 0 ? '' : value.slice(semicolon + 1);
  const param = /\s*([^\s=;]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^\s;]*))\s*;?/gy;
  let position = 0;
  for (let match = param.exec(rest); match !== null && match[0] !== ''; match = param.exec(rest)) {
    const name = match[1]!.toLowerCase();
    if (name.includes('*')) return null; // RFC 2231 continuations or charsets: simpleParser's job
    params.set(name, match[2] === undefined ? match[3]! : match[2].replace(/\\(.)/g, '$1'));
    position = param.lastIndex;
  }
  if (rest.slice(position).trim() !== '') return null;
  return /^[a-z0-9!#$&^_.+-]+\/[a-z0-9!#$&^_.+-]+$/.test(type) ? { type, params } : null;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The body parts between boundary lines; null if the closing delimiter or any part is missing. */
function splitMultipart(body: string, boundary: string): string[] | null {
  const delimiter = new RegExp(`^--${escapeRegExp(boundary)}(--)?[ \\t]*\\r?$`, 'gm');
  const parts: string[] = [];
  let start = -1;
  for (let match = delimiter.exec(body); match !== null; match = delimiter.exec(body)) {
    if (start >= 0) {
      // The line break before a delimiter belongs to the delimiter (RFC 2046 5.1.1).
      let end = match.index;
      if (body[end - 1] === '\n') end -= body[end - 2] === '\r' ? 2 : 1;
      parts.push(body.slice(start, Math.max(start, end)));
    }
    if (match[1] === '--') return parts.length > 0 ? parts : null;
    const lineEnd = body.indexOf('\n', match.index);
    if (lineEnd < 0) return null;
    start = lineEnd + 1;
  }
  return null;
}

function decodeQuotedPrintable(text: string): Buffer {
  const soft = text.replace(/=[ \t]*\r?\n/g, '');
  const bytes: number[] = [];
  for (let i = 0; i < soft.length; i++) {
    const hex = soft[i] === '=' ? soft.slice(i + 1, i + 3) : '';
    if (/^[0-9a-fA-F]{2}$/.test(hex)) {
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else {
      bytes.push(soft.charCodeAt(i) & 0xff);
    }
  }
  return Buffer.from(bytes);
}

/** The part's content as bytes, or null for an encoding we leave to simpleParser. */
function decodeBody(part: Part): Buffer | null {
  const encoding = (part.headers.get('content-transfer-encoding') ?? '7bit').toLowerCase();
  if (encoding === '7bit' || encoding === '8bit' || encoding === 'binary') return Buffer.from(part.body, 'latin1');
  if (encoding === 'quoted-printable') return decodeQuotedPrintable(part.body);
  if (encoding === 'base64') return Buffer.from(part.body.replace(/[^A-Za-z0-9+/=]/g, ''), 'base64');
  return null;
}

/** `raw` as simpleParser would see a standard report, or null when this reader is not sure. */
export function readReportView(raw: Buffer): ReportView | null {
  // latin1 maps each byte to one character, so slices are exact bytes and cost no UTF-8 decoding.
  const top = splitHeaderBody(raw.toString('latin1'));
  const contentType = readContentType(top.headers.get('content-type'));
  const boundary = contentType?.params.get('boundary');
  if (contentType?.type !== 'multipart/report' || boundary === undefined || boundary === '') return null;
  const bodies = splitMultipart(top.body, boundary);
  if (bodies === null) return null;
  const texts: string[] = [];
  const attachments: ReportView['attachments'] = [];
  for (const text of bodies) {
    const part = splitHeaderBody(text);
    const type = readContentType(part.headers.get('content-type'));
    if (type === null || type.type.startsWith('multipart/') || type.type === 'text/html') return null;
    const disposition = part.headers.get('content-disposition')?.split(';')[0]!.trim().toLowerCase();
    if (disposition !== undefined && disposition !== 'inline' && disposition !== 'attachment') return null;
    const content = decodeBody(part);
    if (content === null) return null;
    if (type.type === 'text/plain' && disposition !== 'attachment') {
      // mailparser decodes text in the part's charset and unwraps format=flowed; we read only these.
      const charset = (type.params.get('charset') ?? 'utf-8').toLowerCase().replace(/[^a-z0-9]+/g, '');
      if (!ASCII_OR_UTF8.has(charset) || type.params.get('format')?.toLowerCase() === 'flowed') return null;
      texts.push(content.toString('utf8').replace(/\r?\n/g, '\n'));
    } else {
      // An inline message/rfc822 is parsed into the message by mailparser, not kept as a part.
      if (type.type === 'message/rfc822' && disposition === 'inline') return null;
      attachments.push({ contentType: type.type, content: content.toString('utf8') });
    }
  }
  return {
    reportType: (contentType.params.get('report-type') ?? '').toLowerCase(),
    text: texts.join('\n'),
    attachments,
  };
}
