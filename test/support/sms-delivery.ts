// The sms-delivery queue as the worker runs it, for tests that need queued messages handed over, and
// an app whose messages go to a fake Twilio (or Termii) of its own.
import { expect } from 'vitest';
import { SMS_CALLBACK_PATHS } from '../../src/adapters/sms-provider/index.ts';
import type { Config } from '../../src/config.ts';
import { QueueRunner } from '../../src/queue/index.ts';
import { smsDeliveryQueue, type SmsDeliveryDeps } from '../../src/sms/index.ts';
import { createListeningTestApp, type TestApp } from './app.ts';
import { bearer, type TestTeam } from './factory.ts';
import { FakeTermii } from './fake-termii.ts';
import { FakeTwilio } from './fake-twilio.ts';

/** A runner of the sms-delivery queue with the app's provider and clock (not started). */
export function smsRunner(
  t: Pick<TestApp, 'deps' | 'clock'>,
  options: Omit<SmsDeliveryDeps, 'provider'> = {},
): QueueRunner {
  return new QueueRunner({
    database: t.deps.database,
    queues: [smsDeliveryQueue({ provider: t.deps.smsProvider, ...options })],
    clock: t.clock,
    pollMs: 50,
  });
}

/** Runs the sms-delivery queue until nothing is due. */
export async function deliverDueSms(
  t: Pick<TestApp, 'deps' | 'clock'>,
  options: Omit<SmsDeliveryDeps, 'provider'> = {},
): Promise<void> {
  const runner = smsRunner(t, options);
  await runner.start();
  try {
    runner.notify('sms-delivery');
    await runner.idle();
  } finally {
    await runner.stop();
  }
}

export interface TwilioTestApp {
  t: TestApp;
  twilio: FakeTwilio;
  /** The StatusCallback Herald gives Twilio, where the fake posts its reports. */
  statusCallback: string;
  close(): Promise<void>;
}

/** An app listening on loopback (so reports can reach it) that hands its SMS to a fake Twilio; `config` adds to its own. */
export async function startTwilioTestApp(config: Partial<Config> = {}): Promise<TwilioTestApp> {
  const twilio = await FakeTwilio.start();
  const t = await createListeningTestApp({
    ...config,
    smsProvider: 'twilio',
    twilio: { accountSid: twilio.accountSid, authToken: twilio.authToken, apiUrl: twilio.url },
  });
  return {
    t,
    twilio,
    statusCallback: `${t.deps.config.publicUrl}${SMS_CALLBACK_PATHS.twilio}`,
    close: async () => {
      await t.close();
      await twilio.close();
    },
  };
}

export interface TermiiTestApp {
  t: TestApp;
  termii: FakeTermii;
  close(): Promise<void>;
}

/** An app listening on loopback (so reports can reach it) that hands its SMS to a fake Termii. */
export async function startTermiiTestApp(): Promise<TermiiTestApp> {
  const termii = await FakeTermii.start();
  const t = await createListeningTestApp({
    smsProvider: 'termii',
    termii: { apiKey: termii.apiKey, apiUrl: termii.url, secretKey: termii.secretKey },
  });
  return {
    t,
    termii,
    close: async () => {
      await t.close();
      await termii.close();
    },
  };
}

/** POST /api/v1/sms for `team`, which must answer 201; the created message. */
export async function sendTestSms(
  t: Pick<TestApp, 'app'>,
  team: TestTeam,
  to: string,
): Promise<{ id: string; charge: { amount: string } }> {
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/v1/sms',
    headers: bearer(team.key),
    payload: { to, text: 'Your code is 123456' },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json();
}
