// The plain-language reasons an SMS shows when it is failed or rejected (contract: SMS message
// `reason`: "plain language, never a provider code"). Each adapter maps its provider's codes onto
// these; the provider's own code stays in our logs.

export const SMS_REASON_MESSAGES = {
  invalid_number: 'The phone number is not valid or not in service.',
  landline: 'The number cannot receive text messages (a landline or another number type without SMS).',
  unreachable: 'The phone could not be reached: it was switched off or out of coverage.',
  blocked_by_carrier: "The recipient's mobile network blocked the message.",
  opted_out: 'The recipient has opted out of messages from this sender.',
  do_not_disturb: 'The number is on a do-not-disturb list for this kind of message.',
  sender_not_allowed: 'The sender ID is not allowed for this destination.',
  destination_not_supported: 'Messages to this destination cannot be sent.',
  provider_refused: 'The SMS provider refused the message.',
  expired: 'The message expired before the phone could receive it.',
  unknown: 'The message could not be delivered.',
} as const;

export type SmsReasonCode = keyof typeof SMS_REASON_MESSAGES;

export interface SmsReason {
  code: SmsReasonCode;
  message: string;
}

export function smsReason(code: SmsReasonCode): SmsReason {
  return { code, message: SMS_REASON_MESSAGES[code] };
}
