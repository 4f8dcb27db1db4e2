// Termii: POST /api/sms/send with JSON {api_key, to, from, sms, type: "plain", channel}. Only
// `code: "ok"` means taken (HTTP 200 alone does not). `to` is the number without its `+`. Delivery
// reports are JSON POSTs signed with X-Termii-Signature: hex HMAC-SHA512 of the body with the
// account's secret key (HERALD_TERMII_SECRET_KEY).
import { createHmac } from 'node:crypto';
import { safeEqual } from '../../platform/crypto.ts';
import { createProviderHttp, header, tryJson, type ProviderHttp, noAnswer } from './http.ts';
import { smsReason, type SmsReasonCode } from './reasons.ts';
import { reportedRecipient } from './recipient.ts';
import type { CallbackRequest, DeliveryReport, OutgoingSms, SendOutcome, SmsProvider } from './types.ts';

export interface TermiiOptions {
  apiKey: string;
  /** HERALD_TERMII_API_URL, no trailing slash. */
  apiUrl: string;
  /** HERALD_TERMII_SECRET_KEY; null trusts no report. */
  secretKey: string | null;
  /** `generic` reaches every number but DND ones; `dnd` (transactional) must be enabled by Termii. */
  channel?: 'generic' | 'dnd';
  timeoutMs?: number;
}

export function termiiSignature(secretKey: string, body: string): string {
  return createHmac('sha512', secretKey).update(body).digest('hex');
}

/** Termii explains a refusal in words only; these are the ones we can tell apart. */
function refusalFromWords(words: string): SmsReasonCode {
  if (/dnd|do not disturb/i.test(words)) return 'do_not_disturb';
  if (/sender/i.test(words)) return 'sender_not_allowed';
  if (/phone|number|receiver|recipient|\bto\b/i.test(words)) return 'invalid_number';
  if (/country|route|destination/i.test(words)) return 'destination_not_supported';
  return 'provider_refused';
}

interface TermiiReport {
  message_id?: unknown;
  status?: unknown;
  receiver?: unknown;
}

function reportFrom(raw: TermiiReport): DeliveryReport | null {
  const report = statusReport(raw);
  return report === null ? null : { ...report, ...reportedRecipient(raw.receiver) };
}

function statusReport(raw: TermiiReport): DeliveryReport | null {
  const providerMessageId = raw.message_id === undefined || raw.message_id === null ? '' : String(raw.message_id);
  if (providerMessageId === '') return null;
  const status = String(raw.status ?? '').toLowerCase();
  if (status === 'message sent') return { providerMessageId, status: 'sent' };
  if (status === 'delivered') return { providerMessageId, status: 'delivered' };
  // Termii drops a generic-route message to a DND number without sending it.
  if (status.startsWith('dnd active')) {
    return { providerMessageId, status: 'rejected', reason: smsReason('do_not_disturb') };
  }
  if (status === 'message failed') return { providerMessageId, status: 'failed', reason: smsReason('unknown') };
  if (status === 'rejected') return { providerMessageId, status: 'failed', reason: smsReason('blocked_by_carrier') };
  if (status === 'expired') return { providerMessageId, status: 'failed', reason: smsReason('expired') };
  return null;
}

export function createTermiiProvider(options: TermiiOptions): SmsProvider {
  const http: ProviderHttp = createProviderHttp(options.timeoutMs);
  const endpoint = `${options.apiUrl}/api/sms/send`;

  return {
    kind: 'termii',
    deliveryReports: 'reports',

    async send(message: OutgoingSms, signal?: AbortSignal): Promise<SendOutcome> {
      const payload = JSON.stringify({
        api_key: options.apiKey,
        to: message.to.replace(/^\+/, ''),
        from: message.from,
        sms: message.text,
        type: 'plain',
        channel: options.channel ?? 'generic',
      });
      const answer = await http.post(
        endpoint,
        { 'content-type': 'application/json', accept: 'application/json' },
        payload,
        signal,
      );
      if ('error' in answer) return noAnswer('Termii', answer);
      const body = tryJson(answer.text) as { code?: unknown; message_id?: unknown; message?: unknown } | undefined;
      if (answer.status >= 200 && answer.status < 300 && body?.code === 'ok') {
        const id = body.message_id === undefined || body.message_id === null ? '' : String(body.message_id);
        if (id !== '') return { kind: 'accepted', providerMessageId: id };
        return { kind: 'retry', error: 'Termii answered ok without a message_id' };
      }
      // 401/403 (API key), 429 and 5xx: ours or theirs to fix; any other answer refuses this message.
      if (answer.status === 401 || answer.status === 403 || answer.status === 429 || answer.status >= 500) {
        return { kind: 'retry', error: `Termii answered ${answer.status}` };
      }
      return { kind: 'rejected', reason: smsReason(refusalFromWords(String(body?.message ?? answer.text))) };
    },

    verifyCallback(request: CallbackRequest): boolean {
      if (options.secretKey === null) return false;
      const received = header(request.headers, 'x-termii-signature')?.toLowerCase();
      return received !== undefined && safeEqual(received, termiiSignature(options.secretKey, request.body));
    },

    parseReports(request: CallbackRequest): DeliveryReport[] {
      const body = tryJson(request.body);
      const list = Array.isArray(body) ? body : [body];
      return list
        .filter((item): item is TermiiReport => typeof item === 'object' && item !== null)
        .map(reportFrom)
        .filter((report): report is DeliveryReport => report !== null);
    },

    close: () => http.close(),
  };
}
