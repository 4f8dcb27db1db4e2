// The Termii adapter against its loopback fake: a message taken, each refusal (HTTP 200 included)
// mapped to a plain reason, 5xx and a hang left for a retry, and signed delivery reports.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTermiiProvider, type SmsProvider } from '../../src/adapters/sms-provider/index.ts';
import { FakeTermii } from '../support/fake-termii.ts';
import { expectRejected, message, startedCallbackReceiver, TIMEOUT_MS } from './sms-support.ts';

const receiver = startedCallbackReceiver();

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
