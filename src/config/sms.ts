// The SMS variables: the provider and its credentials (required at start for the chosen one), the
// shared sender ID and the countries SMS may go to.
import { isSupportedCountry } from 'libphonenumber-js/max';
import { parsePhone } from '../platform/phone.ts';
import { ConfigError } from '../config-error.ts';
import { httpUrl, oneOf, text, type Env } from './parse.ts';

export type SmsProviderName = 'log' | 'twilio' | 'africastalking' | 'termii';

const SMS_PROVIDERS: readonly SmsProviderName[] = ['log', 'twilio', 'africastalking', 'termii'];

export interface SmsConfig {
  smsProvider: SmsProviderName;
  /** HERALD_SMS_SHARED_SENDER_ID: the sender ID of teams with none approved for the destination. */
  smsSharedSenderId: string;
  /** HERALD_SMS_COUNTRIES: ISO alpha-2 codes SMS may go to; null means every country. */
  smsCountries: ReadonlySet<string> | null;
  twilio: { accountSid: string | null; authToken: string | null; apiUrl: string };
  africasTalking: { username: string | null; apiKey: string | null; apiUrl: string };
  /** secretKey (HERALD_TERMII_SECRET_KEY) signs Termii's delivery reports; unset, none is trusted. */
  termii: { apiKey: string | null; apiUrl: string; secretKey: string | null };
}

export function smsConfig(env: Env): SmsConfig {
  const smsProvider = oneOf(env, 'HERALD_SMS_PROVIDER', SMS_PROVIDERS, 'log');
  const twilio = {
    accountSid: text(env, 'HERALD_TWILIO_ACCOUNT_SID'),
    authToken: text(env, 'HERALD_TWILIO_AUTH_TOKEN'),
    apiUrl: httpUrl(env, 'HERALD_TWILIO_API_URL', 'https://api.twilio.com')!,
  };
  const africasTalking = {
    username: text(env, 'HERALD_AT_USERNAME'),
    apiKey: text(env, 'HERALD_AT_API_KEY'),
    apiUrl: httpUrl(env, 'HERALD_AT_API_URL', 'https://api.africastalking.com')!,
  };
  const termii = {
    apiKey: text(env, 'HERALD_TERMII_API_KEY'),
    apiUrl: httpUrl(env, 'HERALD_TERMII_API_URL', 'https://api.ng.termii.com')!,
    secretKey: text(env, 'HERALD_TERMII_SECRET_KEY'),
  };
  const credentials: Record<SmsProviderName, Array<[string, string | null]>> = {
    log: [],
    twilio: [
      ['HERALD_TWILIO_ACCOUNT_SID', twilio.accountSid],
      ['HERALD_TWILIO_AUTH_TOKEN', twilio.authToken],
    ],
    africastalking: [
      ['HERALD_AT_USERNAME', africasTalking.username],
      ['HERALD_AT_API_KEY', africasTalking.apiKey],
    ],
    termii: [['HERALD_TERMII_API_KEY', termii.apiKey]],
  };
  requireCredentials(smsProvider, credentials[smsProvider]);
  return {
    smsProvider,
    smsSharedSenderId: senderId(env),
    smsCountries: smsCountries(env),
    twilio,
    africasTalking,
    termii,
  };
}

/** Same rule as a team's sender IDs (operator.md): 1 to 11 letters, digits or spaces with a letter, or E.164. */
function senderId(env: Env): string {
  const raw = text(env, 'HERALD_SMS_SHARED_SENDER_ID');
  if (raw === null) return 'Herald';
  if (!/^(?=.*[A-Za-z])[A-Za-z0-9 ]{1,11}$/.test(raw) && !parsePhone(raw).ok) {
    throw new ConfigError(
      'HERALD_SMS_SHARED_SENDER_ID',
      '1 to 11 letters, digits or spaces with at least one letter, or an E.164 phone number',
      raw,
    );
  }
  return raw;
}

function smsCountries(env: Env): ReadonlySet<string> | null {
  const raw = text(env, 'HERALD_SMS_COUNTRIES');
  if (raw === null) return null;
  const codes = raw
    .split(',')
    .map((s) => s.trim().toUpperCase())
    .filter((s) => s !== '');
  for (const code of codes) {
    if (!/^[A-Z]{2}$/.test(code) || !isSupportedCountry(code)) {
      throw new ConfigError(
        'HERALD_SMS_COUNTRIES',
        'comma-separated ISO 3166 alpha-2 country codes such as NG,KE',
        raw,
      );
    }
  }
  return codes.length === 0 ? null : new Set(codes);
}

/** The chosen provider's credentials must be there at start, not discovered missing at the first send. */
function requireCredentials(provider: SmsProviderName, required: Array<[string, string | null]>): void {
  for (const [name, value] of required) {
    if (value === null) {
      throw new ConfigError(name, `the provider's credential (required with HERALD_SMS_PROVIDER=${provider})`, '');
    }
  }
}
