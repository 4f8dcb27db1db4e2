// Each SMS provider adapter against its loopback fake, in the provider's real formats: a message
// taken, each refusal mapped to a plain reason, 5xx and a hang left for a retry, delivery reports
// parsed, and a good and a forged report told apart. Reports reach a small receiver standing in
// for Herald's callback routes, which hands the adapter the public URL, headers and raw body.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import {
  createAfricasTalkingProvider,
  createLogSmsProvider,
  createSmsProvider,
  createTermiiProvider,
  createTwilioProvider,
  twilioSignature,
  SMS_REASON_MESSAGES,
  type CallbackRequest,
  type DeliveryReport,
  type OutgoingSms,
  type SendOutcome,
  type SmsProvider,
} from '../../src/adapters/sms-provider/index.ts';
import { FakeAfricasTalking } from '../support/fake-africastalking.ts';
import { FakeTermii } from '../support/fake-termii.ts';
import { FakeTwilio } from '../support/fake-twilio.ts';

const TIMEOUT_MS = 400;
const message: OutgoingSms = { id: 'sms_01', to: '+2348031234567', from: 'Acme', text: 'Your code is 123456' };

/** Stands in for Herald's callback routes: verify, then parse, answering 403 or 200. */
class CallbackReceiver {
  provider: SmsProvider | null = null;
  readonly seen: Array<{ verified: boolean; reports: DeliveryReport[] }> = [];
  readonly #server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const request: CallbackRequest = {
        url: `${this.url}${req.url}`,
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      const verified = this.provider!.verifyCallback(request);
      const reports = verified ? this.provider!.parseReports(request) : [];
      this.seen.push({ verified, reports });
      res.writeHead(verified ? 200 : 403).end();
    });
  });
  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.#server.listen(0, '127.0.0.1', resolve));
  }
  get url(): string {
    return `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
  }
  /** The reports of the last callback, or null when it failed verification. */
  last(): DeliveryReport[] | null {
    const entry = this.seen.at(-1)!;
    return entry.verified ? entry.reports : null;
  }
  close(): Promise<void> {
    return new Promise((resolve) => this.#server.close(() => resolve()));
  }
}

const receiver = new CallbackReceiver();
beforeAll(() => receiver.start());
afterAll(() => receiver.close());

function expectRejected(outcome: SendOutcome, code: string): void {
  expect(outcome).toEqual({
    kind: 'rejected',
    reason: { code, message: SMS_REASON_MESSAGES[code as keyof typeof SMS_REASON_MESSAGES] },
  });
  // Plain words: no provider code leaks into what the customer reads.
  if (outcome.kind === 'rejected') expect(outcome.reason.message).not.toMatch(/\d{3}/);
}

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

describe("africa's talking", () => {
  let fake: FakeAfricasTalking;
  let provider: SmsProvider;
  const token = 'tok_0123456789abcdef';
  beforeAll(async () => {
    fake = await FakeAfricasTalking.start();
    provider = createAfricasTalkingProvider({
      username: fake.username,
      apiKey: fake.apiKey,
      apiUrl: fake.url,
      callbackToken: token,
      timeoutMs: TIMEOUT_MS,
    });
  });
  afterAll(async () => {
    await provider.close();
    await fake.close();
  });

  it('sends a form POST with the apiKey header, and answers the recipient messageId', async () => {
    const outcome = await provider.send({ ...message, to: '+254712345678' });
    const sent = fake.messages.at(-1)!;
    expect(outcome).toEqual({ kind: 'accepted', providerMessageId: sent.messageId });
    expect(sent).toMatchObject({ username: fake.username, to: '+254712345678', from: 'Acme', message: message.text });
    expect(fake.requests.at(-1)!.headers.accept).toBe('application/json');
  });

  it.each([
    [401, 'provider_refused'],
    [402, 'sender_not_allowed'],
    [403, 'invalid_number'],
    [404, 'landline'],
    [405, 'provider_refused'],
    [406, 'opted_out'],
    [407, 'destination_not_supported'],
    [409, 'do_not_disturb'],
    [502, 'blocked_by_carrier'],
  ])('maps recipient status %i to %s', async (code, reason) => {
    fake.enqueue({ refuse: code });
    expectRejected(await provider.send(message), reason);
  });

  it.each([
    ['recipient status 500', { refuse: 500 }],
    ['recipient status 501', { refuse: 501 }],
    ['HTTP 500', { status: 500 }],
    ['HTTP 503', { status: 503 }],
    ['no answer', 'hang' as const],
  ])('leaves %s for a retry', async (_name, behaviour) => {
    fake.enqueue(behaviour);
    expect(await provider.send(message)).toMatchObject({ kind: 'retry' });
  });

  it('leaves a wrong API key for a retry', async () => {
    const wrong = createAfricasTalkingProvider({
      username: fake.username,
      apiKey: 'wrong',
      apiUrl: fake.url,
      callbackToken: token,
      timeoutMs: TIMEOUT_MS,
    });
    expect(await wrong.send(message)).toMatchObject({ kind: 'retry', error: expect.stringContaining('401') });
    await wrong.close();
  });

  it('refuses a malformed token without throwing', () => {
    const request = {
      url: `${receiver.url}/hooks/sms/africastalking/%E0%A4%A`,
      headers: {},
      body: 'id=x&status=Success',
    };
    expect(provider.verifyCallback(request)).toBe(false);
  });

  it('parses delivery reports on the tokened path; a wrong token is refused', async () => {
    receiver.provider = provider;
    const id = fake.messages[0]!.messageId;
    const url = `${receiver.url}/hooks/sms/africastalking/${token}`;
    await fake.postReport(url, { id, status: 'Sent' });
    expect(receiver.last()).toEqual([{ providerMessageId: id, status: 'sent', to: fake.messages[0]!.to }]);
    await fake.postReport(url, { id, status: 'Success' });
    expect(receiver.last()).toEqual([{ providerMessageId: id, status: 'delivered', to: fake.messages[0]!.to }]);
    await fake.postReport(url, { id, status: 'Failed', failureReason: 'UserInBlackList' });
    expect(receiver.last()).toMatchObject([{ status: 'failed', reason: { code: 'opted_out' } }]);
    await fake.postReport(url, { id, status: 'Rejected', failureReason: 'UserDoesNotExist' });
    expect(receiver.last()).toMatchObject([{ status: 'failed', reason: { code: 'invalid_number' } }]);
    await fake.postReport(url, { id, status: 'AbsentSubscriber' });
    expect(receiver.last()).toMatchObject([{ status: 'failed', reason: { code: 'unreachable' } }]);
    await fake.postReport(url, { id, status: 'Expired', failureReason: 'DeliveryFailure' });
    expect(receiver.last()).toMatchObject([{ status: 'failed', reason: { code: 'expired' } }]);
    expect(
      (await fake.postReport(`${receiver.url}/hooks/sms/africastalking/tok_wrong`, { id, status: 'Success' })).status,
    ).toBe(403);
    expect(
      (await fake.postReport(`${receiver.url}/hooks/sms/africastalking/${token}x`, { id, status: 'Success' })).status,
    ).toBe(403);
  });
});

describe('termii', () => {
  let fake: FakeTermii;
  let provider: SmsProvider;
  beforeAll(async () => {
    fake = await FakeTermii.start();
    provider = createTermiiProvider({
      apiKey: fake.apiKey,
      apiUrl: fake.url,
      secretKey: fake.secretKey,
      timeoutMs: TIMEOUT_MS,
    });
  });
  afterAll(async () => {
    await provider.close();
    await fake.close();
  });

  it('sends JSON (number without +, plain text, generic route) and answers the message_id', async () => {
    const outcome = await provider.send(message);
    const sent = fake.messages.at(-1)!;
    expect(outcome).toEqual({ kind: 'accepted', providerMessageId: sent.messageId });
    expect(sent).toEqual({
      messageId: sent.messageId,
      to: '2348031234567',
      from: 'Acme',
      sms: message.text,
      channel: 'generic',
    });
    expect(JSON.parse(fake.requests.at(-1)!.body)).toMatchObject({ type: 'plain', api_key: fake.apiKey });
  });

  it.each([
    ['ApplicationSenderId not found', 400, 'sender_not_allowed'],
    ['Insufficient balance', 400, 'provider_refused'],
    ['Invalid phone number', 400, 'invalid_number'],
    ['DND is active on this number', 400, 'do_not_disturb'],
    // HTTP 200 alone is not success: only code "ok" is.
    ['Something went wrong', 200, 'provider_refused'],
  ])('maps "%s" (HTTP %i) to %s', async (words, httpStatus, reason) => {
    fake.enqueue({ refuse: words, httpStatus });
    expectRejected(await provider.send(message), reason);
  });

  it.each([
    ['HTTP 500', { status: 500 }],
    ['HTTP 503', { status: 503 }],
    ['no answer', 'hang' as const],
  ])('leaves %s for a retry', async (_name, behaviour) => {
    fake.enqueue(behaviour);
    expect(await provider.send(message)).toMatchObject({ kind: 'retry' });
  });

  it('leaves a wrong API key for a retry', async () => {
    const wrong = createTermiiProvider({ apiKey: 'wrong', apiUrl: fake.url, secretKey: null, timeoutMs: TIMEOUT_MS });
    expect(await wrong.send(message)).toMatchObject({ kind: 'retry', error: expect.stringContaining('401') });
    await wrong.close();
  });

  it('verifies X-Termii-Signature and parses reports; a forged signature is refused', async () => {
    receiver.provider = provider;
    const messageId = fake.messages[0]!.messageId;
    const url = `${receiver.url}/hooks/sms/termii`;
    await fake.postReport(url, { messageId, status: 'Message Sent' });
    expect(receiver.last()).toEqual([{ providerMessageId: messageId, status: 'sent', to: message.to }]);
    await fake.postReport(url, { messageId, status: 'DELIVERED' });
    expect(receiver.last()).toEqual([{ providerMessageId: messageId, status: 'delivered', to: message.to }]);
    await fake.postReport(url, { messageId, status: 'DND Active on Phone Number' });
    expect(receiver.last()).toMatchObject([{ status: 'rejected', reason: { code: 'do_not_disturb' } }]);
    await fake.postReport(url, { messageId, status: 'Message Failed' });
    expect(receiver.last()).toMatchObject([{ status: 'failed', reason: { code: 'unknown' } }]);
    await fake.postReport(url, { messageId, status: 'Expired' });
    expect(receiver.last()).toMatchObject([{ status: 'failed', reason: { code: 'expired' } }]);
    expect((await fake.postReport(url, { messageId, status: 'DELIVERED', forge: true })).status).toBe(403);
  });

  it('trusts no report without HERALD_TERMII_SECRET_KEY', async () => {
    receiver.provider = createTermiiProvider({ apiKey: fake.apiKey, apiUrl: fake.url, secretKey: null });
    const messageId = fake.messages[0]!.messageId;
    expect((await fake.postReport(`${receiver.url}/hooks/sms/termii`, { messageId, status: 'DELIVERED' })).status).toBe(
      403,
    );
    await receiver.provider.close();
  });
});

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
