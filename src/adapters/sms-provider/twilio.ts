// Twilio Programmable Messaging: POST /2010-04-01/Accounts/{Sid}/Messages.json, form fields To, From,
// Body, StatusCallback, Basic auth Sid:AuthToken. Refusals come back as HTTP 400 with a numeric
// `code`. Status callbacks are form POSTs signed with X-Twilio-Signature: base64 HMAC-SHA1 with the
// auth token over the URL followed by every field name and value, sorted by name.
// Lookup: GET the same Messages.json with To and From (the Messages list, newest first), matched by
// text and creation time.
import { createHmac } from 'node:crypto';
import { safeEqual } from '../../platform/crypto.ts';
import { createProviderHttp, formBody, header, tryJson, type ProviderHttp, noAnswer } from './http.ts';
import { smsReason, type SmsReason, type SmsReasonCode } from './reasons.ts';
import { reportedRecipient } from './recipient.ts';
import type {
  CallbackRequest,
  DeliveryReport,
  LookupOutcome,
  OutgoingSms,
  ProviderMessage,
  SendOutcome,
  SmsProvider,
} from './types.ts';

export interface TwilioOptions {
  accountSid: string;
  authToken: string;
  /** HERALD_TWILIO_API_URL, no trailing slash. */
  apiUrl: string;
  /** `{HERALD_PUBLIC_URL}/hooks/sms/twilio`; null sends no StatusCallback. */
  statusCallbackUrl: string | null;
  timeoutMs?: number;
}

/** Synchronous refusals (HTTP 400 on create) and asynchronous ErrorCodes of undelivered messages. */
const TWILIO_CODES: Record<number, SmsReasonCode> = {
  21211: 'invalid_number',
  21214: 'invalid_number',
  21217: 'invalid_number',
  21401: 'invalid_number',
  21408: 'destination_not_supported',
  21612: 'destination_not_supported',
  21610: 'opted_out',
  21614: 'landline',
  21635: 'landline',
  21606: 'sender_not_allowed',
  21212: 'sender_not_allowed',
  21659: 'sender_not_allowed',
  30003: 'unreachable',
  30004: 'blocked_by_carrier',
  30005: 'invalid_number',
  30006: 'landline',
  30007: 'blocked_by_carrier',
  30008: 'unknown',
  30034: 'sender_not_allowed',
  30042: 'sender_not_allowed',
};

function reasonFor(code: unknown, fallback: SmsReasonCode): SmsReason {
  return smsReason(TWILIO_CODES[Number(code)] ?? fallback);
}

/** A Twilio message status as ours, or null for one the contract does not track (receiving, …). */
function statusOf(status: string, errorCode: unknown): Omit<ProviderMessage, 'providerMessageId'> | null {
  switch (status.toLowerCase()) {
    // Taken and on its way: `sent` for us, as the answer to the POST is.
    case 'accepted':
    case 'scheduled':
    case 'queued':
    case 'sending':
    case 'sent':
      return { status: 'sent' };
    case 'delivered':
    case 'read':
      return { status: 'delivered' };
    case 'undelivered':
      return { status: 'failed', reason: reasonFor(errorCode, 'unknown') };
    // Twilio's `failed`: never sent, and Twilio does not charge for it.
    case 'failed':
    case 'canceled':
      return { status: 'rejected', reason: reasonFor(errorCode, 'provider_refused') };
    default:
      return null;
  }
}

/** The fields of a Messages list entry that a lookup reads (Twilio's JSON, snake_case). */
interface ListedMessage {
  sid?: unknown;
  to?: unknown;
  from?: unknown;
  body?: unknown;
  status?: unknown;
  direction?: unknown;
  error_code?: unknown;
  /** RFC 2822: "Sun, 29 Nov 2026 05:34:54 +0000". */
  date_created?: unknown;
}

/** Twilio's clock and ours may differ by this much. */
const CLOCK_SKEW_MS = 5 * 60_000;

/** The list's messages that are `message` (number, sender, text, created since it was queued), oldest first. */
function matching(listed: readonly ListedMessage[], message: OutgoingSms, since: Date): ProviderMessage[] {
  const found: { at: number; message: ProviderMessage }[] = [];
  // The list is newest first and its dates are to the second: read backwards, a stable sort keeps
  // the older of two created in one second first.
  for (const entry of listed.toReversed()) {
    if (typeof entry.sid !== 'string' || typeof entry.status !== 'string') continue;
    if (entry.to !== message.to || entry.from !== message.from || entry.body !== message.text) continue;
    if (typeof entry.direction === 'string' && !entry.direction.startsWith('outbound')) continue;
    const at = typeof entry.date_created === 'string' ? Date.parse(entry.date_created) : Number.NaN;
    if (!(at >= since.getTime() - CLOCK_SKEW_MS)) continue;
    const status = statusOf(entry.status, entry.error_code);
    if (status !== null) found.push({ at, message: { providerMessageId: entry.sid, ...status } });
  }
  return found.sort((a, b) => a.at - b.at).map((entry) => entry.message);
}

/** Twilio's signature: base64 HMAC-SHA1(authToken, url + name1 + value1 + name2 + value2 …), names sorted. */
export function twilioSignature(authToken: string, url: string, fields: URLSearchParams): string {
  const pairs = [...fields].sort(([a, av], [b, bv]) => (a < b ? -1 : a > b ? 1 : av < bv ? -1 : av > bv ? 1 : 0));
  const hmac = createHmac('sha1', authToken).update(url);
  for (const [name, value] of pairs) hmac.update(name + value);
  return hmac.digest('base64');
}

export function createTwilioProvider(options: TwilioOptions): SmsProvider {
  const http: ProviderHttp = createProviderHttp(options.timeoutMs);
  const endpoint = `${options.apiUrl}/2010-04-01/Accounts/${encodeURIComponent(options.accountSid)}/Messages.json`;
  const authorization = `Basic ${Buffer.from(`${options.accountSid}:${options.authToken}`).toString('base64')}`;
  const headers = {
    authorization,
    'content-type': 'application/x-www-form-urlencoded',
    accept: 'application/json',
  };
  const statusCallback =
    options.statusCallbackUrl === null ? '' : `&${formBody({ StatusCallback: options.statusCallbackUrl })}`;

  return {
    kind: 'twilio',
    deliveryReports: 'reports',

    async send(message: OutgoingSms, signal?: AbortSignal): Promise<SendOutcome> {
      const form = formBody({ To: message.to, From: message.from, Body: message.text }) + statusCallback;
      const answer = await http.post(endpoint, headers, form, signal);
      if ('error' in answer) return noAnswer('Twilio', answer);
      const body = tryJson(answer.text) as { sid?: unknown; code?: unknown } | undefined;
      if (answer.status >= 200 && answer.status < 300) {
        if (typeof body?.sid === 'string' && body.sid !== '') return { kind: 'accepted', providerMessageId: body.sid };
        return { kind: 'retry', error: `Twilio answered ${answer.status} without a message sid` };
      }
      // 400 is a refusal of this message; 401 (credentials), 404 (account), 429 and 5xx are ours or
      // theirs to fix, and the message may go later.
      if (answer.status === 400) return { kind: 'rejected', reason: reasonFor(body?.code, 'provider_refused') };
      return { kind: 'retry', error: `Twilio answered ${answer.status}${body?.code ? ` (error ${body.code})` : ''}` };
    },

    // By To and From only: DateSent filters on `date_sent`, which a message still in Twilio's queue
    // does not have yet, and that is the message most likely to be missed and sent twice. A number
    // gets few texts from one sender (risk rules), so one page of the newest holds ours.
    async lookup(message: OutgoingSms, since: Date, signal?: AbortSignal): Promise<LookupOutcome> {
      const query = new URLSearchParams({ To: message.to, From: message.from, PageSize: '1000' });
      const answer = await http.get(`${endpoint}?${query}`, { authorization, accept: 'application/json' }, signal);
      if ('error' in answer) return { kind: 'retry', error: `Twilio lookup: ${answer.error}` };
      const body = tryJson(answer.text) as { messages?: unknown } | undefined;
      if (answer.status !== 200 || !Array.isArray(body?.messages))
        return { kind: 'retry', error: `Twilio lookup answered ${answer.status}` };
      return { kind: 'looked-up', matches: matching(body.messages as ListedMessage[], message, since) };
    },

    verifyCallback(request: CallbackRequest): boolean {
      const expected = twilioSignature(options.authToken, request.url, new URLSearchParams(request.body));
      const received = header(request.headers, 'x-twilio-signature');
      return received !== undefined && safeEqual(received, expected);
    },

    parseReports(request: CallbackRequest): DeliveryReport[] {
      const fields = new URLSearchParams(request.body);
      const providerMessageId = fields.get('MessageSid') ?? fields.get('SmsSid');
      const status = fields.get('MessageStatus') ?? fields.get('SmsStatus') ?? '';
      if (!providerMessageId) return [];
      // `queued` and `accepted` say nothing the answer to the POST did not.
      if (['queued', 'accepted', 'scheduled'].includes(status.toLowerCase())) return [];
      const report = statusOf(status, fields.get('ErrorCode'));
      return report === null ? [] : [{ providerMessageId, ...report, ...reportedRecipient(fields.get('To')) }];
    },

    close: () => http.close(),
  };
}
