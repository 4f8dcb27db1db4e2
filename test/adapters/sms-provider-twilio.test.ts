// The Twilio adapter against its loopback fake, in Twilio's real formats: a message taken, each refusal
// mapped to a plain reason, 5xx, a hang and a trickle left for a retry, the Messages list looked up,
// and status callbacks parsed, with a good and a forged signature told apart.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  createTwilioProvider,
  twilioSignature,
  SMS_REASON_MESSAGES,
  type SmsProvider,
} from '../../src/adapters/sms-provider/index.ts';
import { FakeTwilio } from '../support/fake-twilio.ts';
import { expectRejected, message, startedCallbackReceiver, TIMEOUT_MS } from './sms-support.ts';

const receiver = startedCallbackReceiver();

describe('twilio', () => {
  let fake: FakeTwilio;
  let provider: SmsProvider;
  const callbackPath = '/hooks/sms/twilio';
  beforeAll(async () => {
    fake = await FakeTwilio.start();
    provider = createTwilioProvider({
      accountSid: fake.accountSid,
      authToken: fake.authToken,
      apiUrl: fake.url,
      statusCallbackUrl: `${receiver.url}${callbackPath}`,
      timeoutMs: TIMEOUT_MS,
    });
  });
  afterAll(async () => {
    await provider.close();
    await fake.close();
  });
  afterEach(() => fake.respondWith('accept'));

  it('sends a form POST with Basic auth and StatusCallback, and answers the message sid', async () => {
    const outcome = await provider.send(message);
    const sent = fake.messages.at(-1)!;
    expect(outcome).toEqual({ kind: 'accepted', providerMessageId: sent.sid });
    expect(sent).toMatchObject({
      to: message.to,
      from: 'Acme',
      body: message.text,
      statusCallback: `${receiver.url}${callbackPath}`,
    });
    expect(fake.requests.at(-1)!.headers['content-type']).toBe('application/x-www-form-urlencoded');
  });

  it.each([
    [21211, 'invalid_number'],
    [21408, 'destination_not_supported'],
    [21610, 'opted_out'],
    [21614, 'landline'],
    [21606, 'sender_not_allowed'],
    [21999, 'provider_refused'],
  ])('maps refusal %i to %s', async (code, reason) => {
    fake.enqueue({ refuse: code });
    expectRejected(await provider.send(message), reason);
  });

  it.each([500, 503, 429])('leaves HTTP %i for a retry', async (status) => {
    fake.enqueue({ status });
    expect(await provider.send(message)).toMatchObject({
      kind: 'retry',
      error: expect.stringContaining(String(status)),
    });
  });

  it("looks a message up in Twilio's Messages list: same number, sender and text, created since, oldest first", async () => {
    const text = `lookup ${Date.now()}`;
    const since = new Date(Date.now() - 1000);
    // One taken without an answer, one with another text, then the same text again.
    fake.enqueue('accept-silently');
    expect(await provider.send({ ...message, text }, AbortSignal.timeout(300))).toMatchObject({
      kind: 'retry',
      unconfirmed: true,
    });
    await provider.send({ ...message, text: `${text} (another)` });
    const second = await provider.send({ ...message, text });
    const [first] = fake.messages.filter((m) => m.body === text);
    const found = await provider.lookup!({ ...message, text }, since);
    expect(found).toEqual({
      kind: 'looked-up',
      matches: [
        { providerMessageId: first!.sid, status: 'sent' },
        { providerMessageId: second.kind === 'accepted' ? second.providerMessageId : '', status: 'sent' },
      ],
    });
    const read = fake.requests.at(-1)!;
    expect(read.method).toBe('GET');
    expect(read.headers.authorization).toMatch(/^Basic /);
    // Twilio reports it further: the list says so too.
    receiver.provider = provider;
    await fake.postStatus(`${receiver.url}${callbackPath}`, {
      sid: first!.sid,
      status: 'undelivered',
      errorCode: 30003,
    });
    const later = await provider.lookup!({ ...message, text }, since);
    expect(later.kind === 'looked-up' && later.matches[0]).toMatchObject({
      status: 'failed',
      reason: { code: 'unreachable' },
    });
    // Created before the message was queued (less the clock skew allowed): not ours.
    expect(await provider.lookup!({ ...message, text }, new Date(Date.now() + 10 * 60_000))).toEqual({
      kind: 'looked-up',
      matches: [],
    });
  });

  it('leaves a provider that never answers for a retry, after the timeout', async () => {
    fake.enqueue('hang');
    const started = Date.now();
    expect(await provider.send(message)).toMatchObject({ kind: 'retry', error: expect.stringContaining('no answer') });
    expect(Date.now() - started).toBeLessThan(TIMEOUT_MS * 5);
  });

  it.each([
    ['of unknown length', {}],
    ['that says its length', { 'content-length': '1000' }],
  ])('leaves an answer %s that trickles in for longer than the timeout for a retry', async (_, length) => {
    // Headers at once, then a byte of body now and then: no single wait is long, the whole is.
    const trickle = http.createServer((req, res) => {
      req.resume();
      res.writeHead(201, { 'content-type': 'application/json', ...length });
      res.write('{');
      const timer = setInterval(() => res.write(' '), TIMEOUT_MS / 4);
      res.on('close', () => clearInterval(timer));
    });
    await new Promise<void>((resolve) => trickle.listen(0, '127.0.0.1', resolve));
    const slow = createTwilioProvider({
      accountSid: fake.accountSid,
      authToken: fake.authToken,
      apiUrl: `http://127.0.0.1:${(trickle.address() as AddressInfo).port}`,
      statusCallbackUrl: null,
      timeoutMs: TIMEOUT_MS,
    });
    try {
      const started = Date.now();
      expect(await slow.send(message)).toMatchObject({ kind: 'retry', error: expect.stringContaining('no answer') });
      expect(Date.now() - started).toBeLessThan(TIMEOUT_MS * 5);
    } finally {
      await slow.close();
      trickle.closeAllConnections();
      await new Promise((resolve) => trickle.close(resolve));
    }
  });

  it('leaves refused credentials for a retry (the operator fixes them; the message is not at fault)', async () => {
    const wrong = createTwilioProvider({
      accountSid: fake.accountSid,
      authToken: 'wrong',
      apiUrl: fake.url,
      statusCallbackUrl: null,
      timeoutMs: TIMEOUT_MS,
    });
    expect(await wrong.send(message)).toMatchObject({ kind: 'retry', error: expect.stringContaining('401') });
    await wrong.close();
  });

  it('verifies and parses status callbacks; a forged signature is refused', async () => {
    receiver.provider = provider;
    const { sid } = fake.messages[0]!;
    const url = `${receiver.url}${callbackPath}`;
    expect((await fake.postStatus(url, { sid, status: 'sent' })).status).toBe(200);
    expect(receiver.last()).toEqual([{ providerMessageId: sid, status: 'sent', to: message.to }]);
    await fake.postStatus(url, { sid, status: 'delivered' });
    expect(receiver.last()).toEqual([{ providerMessageId: sid, status: 'delivered', to: message.to }]);
    await fake.postStatus(url, { sid, status: 'undelivered', errorCode: 30003 });
    expect(receiver.last()).toEqual([
      {
        providerMessageId: sid,
        status: 'failed',
        reason: { code: 'unreachable', message: SMS_REASON_MESSAGES.unreachable },
        // The recipient as the report names it: ties it to a message left waiting for its id.
        to: message.to,
      },
    ]);
    await fake.postStatus(url, { sid, status: 'failed', errorCode: 30007 });
    expect(receiver.last()).toMatchObject([{ status: 'rejected', reason: { code: 'blocked_by_carrier' } }]);
    await fake.postStatus(url, { sid, status: 'queued' });
    expect(receiver.last()).toEqual([]);
    expect((await fake.postStatus(url, { sid, status: 'delivered', forge: true })).status).toBe(403);
    expect(receiver.last()).toBeNull();
  });

  it('refuses a signature made for another URL or another body', () => {
    const url = `${receiver.url}${callbackPath}`;
    const body = 'MessageSid=SM1&MessageStatus=delivered';
    const signature = twilioSignature(fake.authToken, url, new URLSearchParams(body));
    const headers = { 'x-twilio-signature': signature };
    expect(provider.verifyCallback({ url, headers, body })).toBe(true);
    expect(provider.verifyCallback({ url: `${url}?x=1`, headers, body })).toBe(false);
    expect(provider.verifyCallback({ url, headers, body: 'MessageSid=SM1&MessageStatus=failed' })).toBe(false);
    expect(provider.verifyCallback({ url, headers: {}, body })).toBe(false);
  });
});
