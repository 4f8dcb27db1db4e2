// Twilio Programmable Messaging: POST /2010-04-01/Accounts/{Sid}/Messages.json, form fields To, From,
// Body, StatusCallback, Basic auth Sid:AuthToken. Refusals come back as HTTP 400 with a numeric
// `code`. Status callbacks are form POSTs signed with X-Twilio-Signature: base64 HMAC-SHA1 with the
// auth token over the URL followed by every field name and value, sorted by name.
import { createHmac } from 'node:crypto';
import { createProviderHttp, formBody, header, tryJson, type ProviderHttp } from './http.ts';
import { smsReason, type SmsReason, type SmsReasonCode } from './reasons.ts';
import { sameText } from './same-text.ts';
import type { CallbackRequest, DeliveryReport, OutgoingSms, SendOutcome, SmsProvider } from './types.ts';

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
      if ('error' in answer) return { kind: 'retry', error: `Twilio: ${answer.error}` };
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

    verifyCallback(request: CallbackRequest): boolean {
      const expected = twilioSignature(options.authToken, request.url, new URLSearchParams(request.body));
      return sameText(header(request.headers, 'x-twilio-signature'), expected);
    },

    parseReports(request: CallbackRequest): DeliveryReport[] {
      const fields = new URLSearchParams(request.body);
      const providerMessageId = fields.get('MessageSid') ?? fields.get('SmsSid');
      const status = (fields.get('MessageStatus') ?? fields.get('SmsStatus') ?? '').toLowerCase();
      if (!providerMessageId) return [];
      const errorCode = fields.get('ErrorCode');
      switch (status) {
        case 'sending':
        case 'sent':
          return [{ providerMessageId, status: 'sent' }];
        case 'delivered':
          return [{ providerMessageId, status: 'delivered' }];
        case 'undelivered':
          return [{ providerMessageId, status: 'failed', reason: reasonFor(errorCode, 'unknown') }];
        // Twilio's `failed`: never sent, and Twilio does not charge for it.
        case 'failed':
        case 'canceled':
          return [{ providerMessageId, status: 'rejected', reason: reasonFor(errorCode, 'provider_refused') }];
        default:
          return [];
      }
    },

    close: () => http.close(),
  };
}
