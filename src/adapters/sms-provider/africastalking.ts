// Africa's Talking: POST /version1/messaging, header `apiKey`, form fields username, to, message,
// from. The answer carries one entry per recipient with its own statusCode (100–102 taken; 4xx and
// 502 refusals; 500/501 the provider's own trouble). Delivery reports are form POSTs (id, status,
// failureReason) to a URL pasted in AT's dashboard; they are not signed, so the URL carries a token
// (an HMAC of HERALD_SECRET) and verification is comparing that token.
import { safeEqual } from '../../platform/crypto.ts';
import { createProviderHttp, formBody, tryJson, type ProviderHttp, noAnswer } from './http.ts';
import { smsReason, type SmsReasonCode } from './reasons.ts';
import { reportedRecipient } from './recipient.ts';
import type { CallbackRequest, DeliveryReport, OutgoingSms, SendOutcome, SmsProvider } from './types.ts';

export interface AfricasTalkingOptions {
  username: string;
  apiKey: string;
  /** HERALD_AT_API_URL, no trailing slash. */
  apiUrl: string;
  /** The last path segment of `/hooks/sms/africastalking/{token}`; null trusts no report. */
  callbackToken: string | null;
  timeoutMs?: number;
}

/** Per-recipient statusCode of the send answer (research/otp-sms.md §6). */
const RECIPIENT_CODES: Record<number, SmsReasonCode | 'accepted' | 'retry'> = {
  100: 'accepted', // Processed
  101: 'accepted', // Success
  102: 'accepted', // Queued
  401: 'provider_refused', // RiskHold
  402: 'sender_not_allowed', // InvalidSenderId
  403: 'invalid_number', // InvalidPhoneNumber
  404: 'landline', // UnsupportedNumberType
  405: 'provider_refused', // InsufficientBalance (of our AT account)
  406: 'opted_out', // UserInBlacklist
  407: 'destination_not_supported', // CouldNotRoute
  409: 'do_not_disturb', // DoNotDisturbRejection
  500: 'retry', // InternalServerError
  501: 'retry', // GatewayError
  502: 'blocked_by_carrier', // RejectedByGateway
};

/** Final DLR `failureReason` values. */
const FAILURE_REASONS: Record<string, SmsReasonCode> = {
  UserInBlackList: 'opted_out',
  UserDoesNotExist: 'invalid_number',
  NotNetworkSubscriber: 'invalid_number',
  UserIsInactive: 'unreachable',
  UserAccountSuspended: 'unreachable',
  AbsentSubscriber: 'unreachable',
  DeliveryFailure: 'unknown',
  InsufficientCredit: 'unknown',
};

/** The reason of a final DLR status when `failureReason` names none we know. */
const FINAL_STATUS_REASONS: Record<string, SmsReasonCode> = {
  Rejected: 'blocked_by_carrier',
  Failed: 'unknown',
  AbsentSubscriber: 'unreachable',
  Expired: 'expired',
};

interface Recipient {
  statusCode?: unknown;
  status?: unknown;
  messageId?: unknown;
}

export function createAfricasTalkingProvider(options: AfricasTalkingOptions): SmsProvider {
  const http: ProviderHttp = createProviderHttp(options.timeoutMs);
  const endpoint = `${options.apiUrl}/version1/messaging`;

  return {
    kind: 'africastalking',
    deliveryReports: 'reports',

    async send(message: OutgoingSms, signal?: AbortSignal): Promise<SendOutcome> {
      const form = formBody({
        username: options.username,
        to: message.to,
        message: message.text,
        from: message.from,
      });
      const answer = await http.post(
        endpoint,
        { apikey: options.apiKey, accept: 'application/json', 'content-type': 'application/x-www-form-urlencoded' },
        form,
        signal,
      );
      if ('error' in answer) return noAnswer("Africa's Talking", answer);
      const body = tryJson(answer.text) as
        { SMSMessageData?: { Message?: unknown; Recipients?: Recipient[] } } | undefined;
      const recipient = body?.SMSMessageData?.Recipients?.[0];
      if (answer.status >= 200 && answer.status < 300 && recipient !== undefined) {
        const code = Number(recipient.statusCode);
        const meaning = RECIPIENT_CODES[code] ?? 'provider_refused';
        if (meaning === 'accepted' && typeof recipient.messageId === 'string' && recipient.messageId !== 'None') {
          return { kind: 'accepted', providerMessageId: recipient.messageId };
        }
        if (meaning === 'accepted' || meaning === 'retry') {
          return { kind: 'retry', error: `Africa's Talking recipient status ${code} ${String(recipient.status)}` };
        }
        return { kind: 'rejected', reason: smsReason(meaning) };
      }
      if ((answer.status >= 200 && answer.status < 300) || answer.status === 400) {
        // No recipient entry: the whole request was refused, and the answer says why in words.
        const words = String(body?.SMSMessageData?.Message ?? answer.text);
        return { kind: 'rejected', reason: smsReason(refusalFromWords(words)) };
      }
      return { kind: 'retry', error: `Africa's Talking answered ${answer.status}` };
    },

    verifyCallback(request: CallbackRequest): boolean {
      if (options.callbackToken === null) return false;
      try {
        const path = new URL(request.url).pathname;
        return safeEqual(decodeURIComponent(path.slice(path.lastIndexOf('/') + 1)), options.callbackToken);
      } catch {
        return false; // a malformed URL or escape carries no valid token
      }
    },

    parseReports(request: CallbackRequest): DeliveryReport[] {
      const fields = new URLSearchParams(request.body);
      const providerMessageId = fields.get('id');
      if (!providerMessageId) return [];
      const to = reportedRecipient(fields.get('phoneNumber'));
      switch (fields.get('status')) {
        case 'Sent':
        case 'Submitted':
        case 'Buffered':
          return [{ providerMessageId, status: 'sent', ...to }];
        case 'Success':
          return [{ providerMessageId, status: 'delivered', ...to }];
        case 'Rejected':
        case 'Failed':
        case 'AbsentSubscriber':
        case 'Expired': {
          const status = fields.get('status')!;
          // Expired and AbsentSubscriber say it all; Rejected and Failed are told apart by failureReason.
          const byReason =
            status === 'Rejected' || status === 'Failed'
              ? FAILURE_REASONS[fields.get('failureReason') ?? '']
              : undefined;
          const code = byReason ?? FINAL_STATUS_REASONS[status]!;
          return [{ providerMessageId, status: 'failed', reason: smsReason(code), ...to }];
        }
        default:
          return [];
      }
    },

    close: () => http.close(),
  };
}

function refusalFromWords(words: string): SmsReasonCode {
  if (/sender/i.test(words)) return 'sender_not_allowed';
  if (/phone|number/i.test(words)) return 'invalid_number';
  return 'provider_refused';
}
