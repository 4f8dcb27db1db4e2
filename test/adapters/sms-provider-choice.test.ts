// The log SMS provider, and createSmsProvider building the provider HERALD_SMS_PROVIDER names.
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { createLogSmsProvider, createSmsProvider, type OutgoingSms } from '../../src/adapters/sms-provider/index.ts';
import { FakeTwilio } from '../support/fake-twilio.ts';
import { message } from './sms-support.ts';

describe('log', () => {
  it('keeps the message, accepts it and expects no reports', async () => {
    const kept: OutgoingSms[] = [];
    const provider = createLogSmsProvider((m) => void kept.push(m));
    expect(await provider.send(message)).toEqual({ kind: 'accepted', providerMessageId: 'log_sms_01' });
    expect(kept).toEqual([message]);
    expect(provider.deliveryReports).toBe('none');
    expect(provider.verifyCallback({ url: 'http://x/hooks/sms/log', headers: {}, body: '' })).toBe(false);
  });
});

describe('createSmsProvider', () => {
  const deps = { keep: () => {}, africasTalkingToken: 'tok' };

  it('builds the provider HERALD_SMS_PROVIDER names', async () => {
    expect(createSmsProvider(loadConfig({}), deps).kind).toBe('log');
    const termii = createSmsProvider(loadConfig({ HERALD_SMS_PROVIDER: 'termii', HERALD_TERMII_API_KEY: 'k' }), deps);
    expect(termii.kind).toBe('termii');
    await termii.close();
  });

  it('gives Twilio {HERALD_PUBLIC_URL}/hooks/sms/twilio as the StatusCallback', async () => {
    const fake = await FakeTwilio.start();
    const provider = createSmsProvider(
      loadConfig({
        HERALD_SMS_PROVIDER: 'twilio',
        HERALD_TWILIO_ACCOUNT_SID: fake.accountSid,
        HERALD_TWILIO_AUTH_TOKEN: fake.authToken,
        HERALD_TWILIO_API_URL: fake.url,
        HERALD_PUBLIC_URL: 'https://herald.example.com/',
      }),
      deps,
    );
    expect(await provider.send(message)).toMatchObject({ kind: 'accepted' });
    expect(fake.messages[0]!.statusCallback).toBe('https://herald.example.com/hooks/sms/twilio');
    await provider.close();
    await fake.close();
  });
});
