// HERALD_SMS_PROVIDER=log: nothing leaves the machine. Every message is handed to `keep` (the caller
// stores it in the SMS outbox, read by GET /admin/v1/sms/outbox) and accepted; no report will ever
// come, so the worker moves it to sent and then delivered itself (operator.md).
import type { CallbackRequest, DeliveryReport, OutgoingSms, SendOutcome, SmsProvider } from './types.ts';

export type KeepSms = (message: OutgoingSms) => void | Promise<void>;

export function createLogSmsProvider(keep: KeepSms): SmsProvider {
  return {
    kind: 'log',
    deliveryReports: 'none',
    async send(message: OutgoingSms): Promise<SendOutcome> {
      await keep({ id: message.id, to: message.to, from: message.from, text: message.text });
      return { kind: 'accepted', providerMessageId: `log_${message.id}` };
    },
    verifyCallback: (_request: CallbackRequest) => false,
    parseReports: (_request: CallbackRequest): DeliveryReport[] => [],
    async close() {},
  };
}
