// The SMS variables of operator.md: provider choice and its credentials, API bases, the shared
// sender ID, the destination allow-list and Termii's report key. A bad value names the variable.
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { configFailure } from '../support/config-failure.ts';

describe('SMS configuration', () => {
  it('defaults to the log provider, the shared sender ID "Herald", every country and the providers\' real APIs', () => {
    expect(loadConfig({})).toMatchObject({
      smsProvider: 'log',
      smsSharedSenderId: 'Herald',
      smsCountries: null,
      twilio: { accountSid: null, authToken: null, apiUrl: 'https://api.twilio.com' },
      africasTalking: { username: null, apiKey: null, apiUrl: 'https://api.africastalking.com' },
      termii: { apiKey: null, apiUrl: 'https://api.ng.termii.com', secretKey: null },
    });
  });

  it('reads a provider with its credentials and an API base without its trailing slash', () => {
    const config = loadConfig({
      HERALD_SMS_PROVIDER: 'termii',
      HERALD_TERMII_API_KEY: 'TLkey',
      HERALD_TERMII_SECRET_KEY: 'report-secret',
      HERALD_TERMII_API_URL: 'http://127.0.0.1:4010/',
      HERALD_SMS_SHARED_SENDER_ID: 'Acme 2',
      HERALD_SMS_COUNTRIES: ' ng, KE ,',
    });
    expect(config.smsProvider).toBe('termii');
    expect(config.termii).toEqual({ apiKey: 'TLkey', apiUrl: 'http://127.0.0.1:4010', secretKey: 'report-secret' });
    expect(config.smsSharedSenderId).toBe('Acme 2');
    expect([...config.smsCountries!]).toEqual(['NG', 'KE']);
  });

  it('takes an E.164 number as the shared sender ID', () => {
    expect(loadConfig({ HERALD_SMS_SHARED_SENDER_ID: '+12015550123' }).smsSharedSenderId).toBe('+12015550123');
  });

  it.each<[string, Record<string, string>]>([
    ['HERALD_SMS_PROVIDER', { HERALD_SMS_PROVIDER: 'vonage' }],
    ['HERALD_TWILIO_ACCOUNT_SID', { HERALD_SMS_PROVIDER: 'twilio', HERALD_TWILIO_AUTH_TOKEN: 'token' }],
    ['HERALD_TWILIO_AUTH_TOKEN', { HERALD_SMS_PROVIDER: 'twilio', HERALD_TWILIO_ACCOUNT_SID: 'AC1' }],
    ['HERALD_AT_USERNAME', { HERALD_SMS_PROVIDER: 'africastalking', HERALD_AT_API_KEY: 'key' }],
    ['HERALD_AT_API_KEY', { HERALD_SMS_PROVIDER: 'africastalking', HERALD_AT_USERNAME: 'sandbox' }],
    ['HERALD_TERMII_API_KEY', { HERALD_SMS_PROVIDER: 'termii' }],
    ['HERALD_TWILIO_API_URL', { HERALD_TWILIO_API_URL: 'api.twilio.com' }],
    ['HERALD_AT_API_URL', { HERALD_AT_API_URL: 'ftp://api.africastalking.com' }],
    ['HERALD_TERMII_API_URL', { HERALD_TERMII_API_URL: 'not a url' }],
    ['HERALD_SMS_SHARED_SENDER_ID', { HERALD_SMS_SHARED_SENDER_ID: 'TwelveChars1' }],
    ['HERALD_SMS_SHARED_SENDER_ID', { HERALD_SMS_SHARED_SENDER_ID: '12345' }],
    ['HERALD_SMS_SHARED_SENDER_ID', { HERALD_SMS_SHARED_SENDER_ID: 'Herald!' }],
    ['HERALD_SMS_COUNTRIES', { HERALD_SMS_COUNTRIES: 'NGA' }],
    ['HERALD_SMS_COUNTRIES', { HERALD_SMS_COUNTRIES: 'NG,XX' }],
    ['HERALD_PRICES_FILE', { HERALD_PRICES_FILE: '/nonexistent/prices.json' }],
  ])('names %s for %j', (variable, env) => {
    const error = configFailure(env);
    expect(error.message).toContain(`${variable}=`);
    expect(error.message).toContain('accepts');
  });

  it('does not require credentials of a provider that is not chosen', () => {
    expect(loadConfig({ HERALD_SMS_PROVIDER: 'log', HERALD_TWILIO_ACCOUNT_SID: 'AC1' }).smsProvider).toBe('log');
  });
});
