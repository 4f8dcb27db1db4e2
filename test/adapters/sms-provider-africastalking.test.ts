// The Africa's Talking adapter against its loopback fake: a message taken, each recipient status
// mapped to a plain reason, 5xx and a hang left for a retry, and delivery reports on the tokened path.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAfricasTalkingProvider, type SmsProvider } from '../../src/adapters/sms-provider/index.ts';
import { FakeAfricasTalking } from '../support/fake-africastalking.ts';
import { expectRejected, message, startedCallbackReceiver, TIMEOUT_MS } from './sms-support.ts';

const receiver = startedCallbackReceiver();

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
