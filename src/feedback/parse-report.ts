// A received message -> what it reports: a delivery status notification (RFC 3464
// multipart/report; report-type=delivery-status, or an old MTA's plain-text bounce), a complaint
// (ARF, RFC 5965, report-type=feedback-report), or nothing we recognise. Never throws: anything
// malformed is 'unrecognised', because this runs on whatever the internet sends us.
import type { ParsedMail } from 'mailparser';
import { lazy } from '../platform/lazy.ts';
import { parseMimeWithin } from '../platform/mime-limits.ts';
import { findStatus } from './bounce-rules.ts';
import { readReportView, type ReportView } from './mime-report.ts';

export interface ReportRecipient {
  /** Lower-cased, without the address type ("rfc822;"). */
  address: string;
  /** DSN Action (failed, delayed, delivered, relayed, expanded), lower-cased; null for complaints. */
  action: string | null;
  status: string | null;
  diagnosticCode: string | null;
  remoteMta: string | null;
}

export interface FeedbackReport {
  kind: 'dsn' | 'complaint' | 'unrecognised';
  /** rfc3464 and arf are the standards; plain-text is a bounce read by the rule table's heuristics. */
  format: 'rfc3464' | 'plain-text' | 'arf' | null;
  recipients: ReportRecipient[];
  reportingMta: string | null;
  /** ARF Feedback-Type, lower-cased (abuse, fraud, not-spam, ...). */
  feedbackType: string | null;
  /** ARF Original-Mail-From: the envelope sender of the reported message, i.e. our return path. */
  originalMailFrom: string | null;
  /** Headers of the message the report is about, lower-cased names, first value of each. */
  originalHeaders: Record<string, string>;
  /** The same header block as text (for finding return-path addresses anywhere in it). */
  originalHeaderText: string;
  /** The human-readable part. */
  text: string;
}

type Fields = Map<string, string[]>;

const unrecognised = (text = ''): FeedbackReport => ({
  kind: 'unrecognised',
  format: null,
  recipients: [],
  reportingMta: null,
  feedbackType: null,
  originalMailFrom: null,
  originalHeaders: {},
  originalHeaderText: '',
  text,
});

/** Header-style field groups separated by blank lines (RFC 3464 section 2.1, RFC 5965 section 3.1). */
function parseFieldGroups(block: string): Fields[] {
  const groups: Fields[] = [];
  let current: Fields = new Map();
  let last: { name: string; index: number } | null = null;
  for (const line of block.replace(/\r\n?/g, '\n').split('\n')) {
    if (line.trim() === '') {
      if (current.size > 0) groups.push(current);
      current = new Map();
      last = null;
    } else if (/^[ \t]/.test(line) && last !== null) {
      const values = current.get(last.name)!;
      values[last.index] = `${values[last.index]} ${line.trim()}`; // folded line
    } else {
      const colon = line.indexOf(':');
      if (colon <= 0) continue;
      const name = line.slice(0, colon).trim().toLowerCase();
      const values = current.get(name) ?? [];
      values.push(line.slice(colon + 1).trim());
      current.set(name, values);
      last = { name, index: values.length - 1 };
    }
  }
  if (current.size > 0) groups.push(current);
  return groups;
}

const first = (fields: Fields | undefined, name: string): string | null => fields?.get(name)?.[0] ?? null;

/** "rfc822; User@Example.org" -> "user@example.org"; "dns; mx.example.org" -> "mx.example.org". */
function typedValue(value: string | null): string | null {
  if (value === null) return null;
  const semicolon = value.indexOf(';');
  const bare = (semicolon >= 0 ? value.slice(semicolon + 1) : value).trim().replace(/^<|>$/g, '');
  return bare === '' ? null : bare;
}

const collapse = (value: string) => value.replace(/\s+/g, ' ').trim();

function headerBlock(content: string): string {
  const end = content.search(/\r?\n\r?\n/);
  return end < 0 ? content : content.slice(0, end);
}

type Attachments = ReportView['attachments'];

function originalOf(attachments: Attachments): { headers: Record<string, string>; text: string } {
  const part = attachments.find((a) =>
    /^(message\/(rfc822|global|global-headers)|text\/rfc822-headers)$/i.test(a.contentType),
  );
  if (part === undefined) return { headers: {}, text: '' };
  const text = headerBlock(part.content);
  const headers: Record<string, string> = {};
  for (const [name, values] of parseFieldGroups(text)[0] ?? new Map<string, string[]>()) headers[name] = values[0]!;
  return { headers, text };
}

const partOf = (attachments: Attachments, type: RegExp) =>
  attachments.find((a) => type.test(a.contentType))?.content ?? null;

function deliveryStatus(block: string): { reportingMta: string | null; recipients: ReportRecipient[] } {
  const [perMessage, ...perRecipient] = parseFieldGroups(block);
  const recipients: ReportRecipient[] = [];
  for (const fields of perRecipient) {
    const address = typedValue(first(fields, 'final-recipient') ?? first(fields, 'original-recipient'))?.toLowerCase();
    if (address === undefined || !address.includes('@')) continue;
    const diagnostic = typedValue(first(fields, 'diagnostic-code'));
    recipients.push({
      address,
      action: first(fields, 'action')?.toLowerCase().split(/\s/)[0] ?? null,
      status: findStatus(first(fields, 'status')),
      diagnosticCode: diagnostic === null ? null : collapse(diagnostic),
      remoteMta: typedValue(first(fields, 'remote-mta')),
    });
  }
  return { reportingMta: typedValue(first(perMessage, 'reporting-mta')), recipients };
}

// Plain-text bounces: how old MTAs and Exchange say "this is a bounce", and where the copy of the
// original message starts (addresses after it are the original's, not failed recipients).
const BOUNCE_SENDER = /mailer-daemon|postmaster|mail delivery (?:system|subsystem)|microsoftexchange/i;
const BOUNCE_SUBJECT =
  /undeliver|undelivered|delivery (?:status notification|failure|has failed|failed|delayed)|returned mail|failure notice|non-?delivery|could not be delivered|mail delivery failed|warning: message/i;
const BOUNCE_BODY =
  /permanent error|could not be delivered|delivery has failed|wasn't able to deliver|couldn't be delivered|delivery to the following recipient|undeliverable/i;
const ORIGINAL_STARTS =
  /^\s*(?:-{2,}.*(?:copy of the message|original message|returned message|message header|headers? of the original).*|-+ ?original message ?-+|original message headers:?|(?:received|return-path|message-id):.*)$/im;
const DELAYED_TEXT = /delay|will (?:continue to )?retry|not yet been delivered|still undelivered|temporar/i;
const ADDRESS = /[a-z0-9._%+'=-]+@[a-z0-9-]+(?:\.[a-z0-9-]+)+/gi;
const NOT_A_RECIPIENT = /^(?:mailer-daemon|postmaster|bounce\+|noreply|no-reply)/i;
const SMTP_LINE = /(?:^|[\s#:;(])[45]\d\d[ -].*$/m;

function plainTextBounce(parsed: ParsedMail, text: string): ReportRecipient[] | null {
  const from = parsed.from?.text ?? '';
  const subject = parsed.subject ?? '';
  if (!BOUNCE_SENDER.test(from) && !BOUNCE_SUBJECT.test(subject) && !BOUNCE_BODY.test(text)) return null;
  const cut = text.search(ORIGINAL_STARTS);
  const notice = cut < 0 ? text : text.slice(0, cut);
  const occurrences = [...notice.matchAll(ADDRESS)].filter((m) => !NOT_A_RECIPIENT.test(m[0]));
  const segments = new Map<string, string[]>();
  occurrences.forEach((match, i) => {
    const start = match.index + match[0].length;
    const end = Math.min(occurrences[i + 1]?.index ?? notice.length, start + 600);
    const address = match[0].toLowerCase();
    segments.set(address, [...(segments.get(address) ?? []), notice.slice(start, end)]);
  });
  const delayed = DELAYED_TEXT.test(subject) || DELAYED_TEXT.test(notice.slice(0, 600));
  return [...segments].map(([address, parts]) => {
    const about = parts.join('\n').replace(/^[>:\s]+/, '');
    const line = SMTP_LINE.exec(about)?.[0];
    const diagnostic = collapse(line ?? about)
      .replace(/^[#:;(]\s*/, '')
      .slice(0, 500);
    return {
      address,
      action: delayed ? 'delayed' : 'failed',
      status: findStatus(about),
      diagnosticCode: diagnostic === '' ? null : diagnostic,
      remoteMta: null,
    };
  });
}

/** The standard report in `view` (DSN with recipients, or ARF with a Feedback-Type), else null. */
function standardReport(view: ReportView): FeedbackReport | null {
  const original = originalOf(view.attachments);
  const base = { ...unrecognised(view.text), originalHeaders: original.headers, originalHeaderText: original.text };
  if (view.reportType === 'feedback-report') {
    const block = partOf(view.attachments, /^message\/(feedback-report|global-feedback-report)$/i);
    const fields = block === null ? undefined : parseFieldGroups(block)[0];
    const feedbackType = first(fields, 'feedback-type')?.toLowerCase() ?? null;
    if (feedbackType === null) return null;
    const recipients = (fields?.get('original-rcpt-to') ?? [])
      .map((value) => typedValue(value)?.toLowerCase())
      .filter((address): address is string => address !== undefined && address.includes('@'))
      .map((address) => ({ address, action: null, status: null, diagnosticCode: null, remoteMta: null }));
    return {
      ...base,
      kind: 'complaint',
      format: 'arf',
      feedbackType,
      recipients,
      originalMailFrom: typedValue(first(fields, 'original-mail-from')),
    };
  }
  if (view.reportType === 'delivery-status') {
    const block = partOf(view.attachments, /^message\/(global-)?delivery-status$/i);
    const status = block === null ? null : deliveryStatus(block);
    if (status !== null && status.recipients.length > 0) return { ...base, kind: 'dsn', format: 'rfc3464', ...status };
  }
  return null;
}

function viewOf(parsed: ParsedMail): ReportView {
  const contentType = parsed.headers.get('content-type');
  const reportType =
    contentType !== undefined &&
    typeof contentType === 'object' &&
    'params' in contentType &&
    /^multipart\/report$/i.test(contentType.value)
      ? (contentType.params['report-type'] ?? '').toLowerCase()
      : null;
  const attachments = parsed.attachments.map((a) => ({
    contentType: a.contentType,
    content: a.content.toString('utf8'),
  }));
  return { reportType, text: parsed.text ?? '', attachments };
}

function reportOf(parsed: ParsedMail): FeedbackReport {
  const view = viewOf(parsed);
  const standard = standardReport(view);
  if (standard !== null) return standard;
  // Not a standard report, or one whose status part is missing or empty: read it as text.
  const original = originalOf(view.attachments);
  const base = { ...unrecognised(view.text), originalHeaders: original.headers, originalHeaderText: original.text };
  if (view.reportType === 'feedback-report') return base; // an ARF report without a Feedback-Type
  const recipients = plainTextBounce(parsed, view.text);
  if (recipients === null || recipients.length === 0) return base;
  return { ...base, kind: 'dsn', format: 'plain-text', recipients };
}

/** mailparser (with its MIME and charset packages), read at the first report the light path leaves. */
const mailparser = lazy(() => import('mailparser'));

/**
 * The full path: mailparser reads anything MIME can say. Exported for the tests that compare paths.
 * A message past the parser's limits, or whose parse outlives its deadline, is 'unrecognised'
 * (platform/mime-limits.ts): mailparser would truncate it or never finish, holding every report behind it.
 */
export async function parseWithMailparser(raw: Buffer): Promise<FeedbackReport> {
  try {
    const parsed = await parseMimeWithin(raw, async (bytes) =>
      (await mailparser()).simpleParser(bytes, {
        keepDeliveryStatus: true, // otherwise mailparser folds the message/delivery-status part into text
        skipHtmlToText: false, // Exchange NDRs are often HTML only
        skipTextToHtml: true,
        skipTextLinks: true,
        skipImageLinks: true,
      }),
    );
    // No headers at all: mailsplit stopped at a header block over its limit.
    if (parsed.headers === undefined) return unrecognised();
    return reportOf(parsed);
  } catch {
    return unrecognised();
  }
}

/** The light path alone (mime-report.ts): a standard report, or null when simpleParser must decide. */
export function parseStandardReport(raw: Buffer): FeedbackReport | null {
  try {
    const view = readReportView(raw);
    return view === null ? null : standardReport(view);
  } catch {
    return null; // never expected; the full parser then has the last word
  }
}

/** Reads one received message. Anything it cannot make sense of is kind 'unrecognised'. */
export async function parseFeedbackReport(raw: Buffer): Promise<FeedbackReport> {
  return parseStandardReport(raw) ?? parseWithMailparser(raw);
}
