// What the rest of Herald uses of the SMS provider: the interface, the reasons, the callback paths,
// and one factory that picks the implementation HERALD_SMS_PROVIDER names.
import type { Config } from '../../config.ts';
import { createAfricasTalkingProvider } from './africastalking.ts';
import { createLogSmsProvider, type KeepSms } from './log.ts';
import { createTermiiProvider } from './termii.ts';
import { createTwilioProvider } from './twilio.ts';
import type { SmsProvider } from './types.ts';

export type {
  CallbackRequest,
  DeliveryReport,
  LookupOutcome,
  OutgoingSms,
  ProviderMessage,
  ReportStatus,
  SendOutcome,
  SmsProvider,
} from './types.ts';
export { SMS_REASON_MESSAGES, smsReason, type SmsReason, type SmsReasonCode } from './reasons.ts';
export { createAfricasTalkingProvider, type AfricasTalkingOptions } from './africastalking.ts';
export { createLogSmsProvider, type KeepSms } from './log.ts';
export { createTermiiProvider, termiiSignature, type TermiiOptions } from './termii.ts';
export { createTwilioProvider, twilioSignature, type TwilioOptions } from './twilio.ts';

/** Where each provider's reports arrive (operator.md, Provider callbacks); Africa's Talking adds `/{token}`. */
export const SMS_CALLBACK_PATHS = {
  twilio: '/hooks/sms/twilio',
  africastalking: '/hooks/sms/africastalking',
  termii: '/hooks/sms/termii',
} as const;

export interface SmsProviderDeps {
  /** Where the `log` provider hands each message (the SMS outbox). */
  keep: KeepSms;
  /** The token of `/hooks/sms/africastalking/{token}` (an HMAC of HERALD_SECRET). */
  africasTalkingToken: string | null;
  timeoutMs?: number;
}

type SmsConfig = Pick<Config, 'smsProvider' | 'twilio' | 'africasTalking' | 'termii' | 'publicUrl'>;

/** config.ts has already refused a chosen provider without its credentials. */
export function createSmsProvider(config: SmsConfig, deps: SmsProviderDeps): SmsProvider {
  const timeout = deps.timeoutMs !== undefined ? { timeoutMs: deps.timeoutMs } : {};
  switch (config.smsProvider) {
    case 'log':
      return createLogSmsProvider(deps.keep);
    case 'twilio':
      return createTwilioProvider({
        accountSid: config.twilio.accountSid!,
        authToken: config.twilio.authToken!,
        apiUrl: config.twilio.apiUrl,
        statusCallbackUrl: `${config.publicUrl}${SMS_CALLBACK_PATHS.twilio}`,
        ...timeout,
      });
    case 'africastalking':
      return createAfricasTalkingProvider({
        username: config.africasTalking.username!,
        apiKey: config.africasTalking.apiKey!,
        apiUrl: config.africasTalking.apiUrl,
        callbackToken: deps.africasTalkingToken,
        ...timeout,
      });
    case 'termii':
      return createTermiiProvider({
        apiKey: config.termii.apiKey!,
        apiUrl: config.termii.apiUrl,
        secretKey: config.termii.secretKey,
        ...timeout,
      });
  }
}
