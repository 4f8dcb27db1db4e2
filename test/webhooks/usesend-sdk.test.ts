// useSend users switch without rewriting (issue 22): every webhook call also carries useSend's
// headers, so the published `usesend-js` SDK's `webhooks(secret).constructEvent` verifies it with
// the secret Herald showed at creation, unchanged. The SDK is the real package (a devDependency),
// checking the timestamp against the real time with its default 5-minute tolerance; the harness's
// clock starts at the real time, so a timestamp in seconds or from another moment would fail here.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { emails, type SendingTeam } from '../emails/support.ts';
import { createWebhook, startWebhookHarness, type WebhookHarness } from './support.ts';

// The SDK's surface these tests use (usesend-js 1.6: src/webhooks.ts).
type Headers = Record<string, string | string[] | undefined>;
interface UseSendWebhooks {
  constructEvent(body: string, options: { headers: Headers; tolerance?: number }): unknown;
  verify(body: string, options: { headers: Headers; tolerance?: number }): boolean;
}
interface UseSendModule {
  UseSend: new (apiKey: string) => { webhooks(secret: string): UseSendWebhooks };
  WebhookVerificationError: new (...args: never[]) => Error & { code: string };
}

// Imported by name, as a receiver's code does; a missing devDependency fails with what to install.
const PACKAGE: string = 'usesend-js';
async function loadSdk(): Promise<UseSendModule> {
  try {
    return (await import(PACKAGE)) as UseSendModule;
  } catch (error) {
    throw new Error(`${PACKAGE} is not installed: it is a devDependency of these tests`, { cause: error });
  }
}

const SECOND = 1000;

let sdk: UseSendModule;
let w: WebhookHarness;
let team: SendingTeam;

beforeAll(async () => {
  sdk = await loadSdk();
  w = await startWebhookHarness({ requestTimeoutMs: 1_500 });
  team = await w.h.team({ plan: 'pro' });
});
beforeEach(() => {
  w.receiver.reset();
  w.receiver.respondWith({ status: 200 });
});
afterAll(async () => w?.close());

const webhooks = (secret: string) => new sdk.UseSend('us_not_used_for_verifying').webhooks(secret);

async function testEvent(webhookId: string): Promise<string> {
  const response = await w.request(team.key, 'POST', `/v1/webhooks/${webhookId}/test`);
  expect(response.statusCode).toBe(202);
  return response.json().callId;
}

/** The SDK's error code for a body and headers that do not verify (null when they do). */
function refusal(secret: string, body: string, headers: Headers): string | null {
  try {
    webhooks(secret).constructEvent(body, { headers });
    return null;
  } catch (error) {
    expect(error).toBeInstanceOf(sdk.WebhookVerificationError);
    return (error as { code: string }).code;
  }
}

describe('useSend signature headers', () => {
  it('constructEvent from usesend-js verifies a delivered test event with the secret shown at creation', async () => {
    const hook = await createWebhook(w, team.key, { url: w.url(), eventTypes: [] });
    const callId = await testEvent(hook.id);
    const attemptAt = w.h.t.clock.now();
    await w.settle();
    expect(w.receiver.requests).toHaveLength(1);
    const { body, headers } = w.receiver.requests[0]!;

    const event = webhooks(hook.secret).constructEvent(body, { headers });
    expect(event).toEqual(JSON.parse(body));
    expect(event).toMatchObject({ type: 'webhook.test', data: { webhookId: hook.id } });
    expect(headers).toMatchObject({
      'x-usesend-event': 'webhook.test',
      'x-usesend-call': callId,
      // Milliseconds, as useSend sends them; the Standard Webhooks timestamp stays in seconds.
      'x-usesend-timestamp': String(attemptAt.getTime()),
      'webhook-timestamp': String(Math.floor(attemptAt.getTime() / 1000)),
      'x-usesend-retry': 'false',
    });
    expect(headers['x-usesend-signature']).toMatch(/^v1=[0-9a-f]{64}$/);
  });

  it('a changed body, a changed timestamp or another webhook secret does not verify', async () => {
    const hook = await createWebhook(w, team.key, { url: w.url(), eventTypes: [] });
    const other = await createWebhook(w, team.key, { url: w.url(), eventTypes: [] });
    await testEvent(hook.id);
    await w.settle();
    const { body, headers } = w.receiver.requests[0]!;
    expect(refusal(hook.secret, body, headers)).toBeNull();
    expect(refusal(hook.secret, body.replace('webhook.test', 'webhook.tost'), headers)).toBe('SIGNATURE_MISMATCH');
    expect(refusal(hook.secret, `${body} `, headers)).toBe('SIGNATURE_MISMATCH');
    const oneMsLater = String(Number(headers['x-usesend-timestamp']) + 1);
    expect(refusal(hook.secret, body, { ...headers, 'x-usesend-timestamp': oneMsLater })).toBe('SIGNATURE_MISMATCH');
    expect(refusal(other.secret, body, headers)).toBe('SIGNATURE_MISMATCH');
    expect(webhooks(other.secret).verify(body, { headers })).toBe(false);
  });

  it('after a rotation the new secret verifies and the old one does not', async () => {
    const hook = await createWebhook(w, team.key, { url: w.url(), eventTypes: [] });
    const rotated = (await w.request(team.key, 'POST', `/v1/webhooks/${hook.id}/rotate-secret`)).json();
    await testEvent(hook.id);
    await w.settle();
    const { body, headers } = w.receiver.requests[0]!;
    expect(refusal(rotated.secret, body, headers)).toBeNull();
    expect(refusal(hook.secret, body, headers)).toBe('SIGNATURE_MISMATCH');
  });

  it('a retry is signed afresh at its own time, marked X-UseSend-Retry, and still verifies', async () => {
    const hook = await createWebhook(w, team.key, { url: w.url(), eventTypes: [] });
    w.receiver.respondWith({ status: 500 });
    const callId = await testEvent(hook.id);
    await w.settle();
    w.receiver.respondWith({ status: 200 });
    // The schedule's second attempt comes 5 s (±20%) after the first.
    w.h.t.clock.advance(7 * SECOND);
    const retriedAt = w.h.t.clock.now();
    await w.settle();
    expect(w.receiver.requests).toHaveLength(2);
    const [first, second] = w.receiver.requests;
    expect(first!.headers['x-usesend-retry']).toBe('false');
    expect(second!.headers).toMatchObject({
      'x-usesend-call': callId,
      'x-usesend-retry': 'true',
      'x-usesend-timestamp': String(retriedAt.getTime()),
    });
    expect(second!.headers['x-usesend-signature']).not.toBe(first!.headers['x-usesend-signature']);
    expect(refusal(hook.secret, second!.body, second!.headers)).toBeNull();
  });

  it('an email event carries its type in X-UseSend-Event and verifies', async () => {
    // The earlier tests' webhooks take every event too: this one is told apart by its path.
    const hook = await createWebhook(w, team.key, { url: w.url(undefined, '/queued'), eventTypes: ['email.queued'] });
    const emailId = await emails(w.h.app, team.key).sent({
      from: team.from(),
      to: 'reader@example.net',
      subject: 'Hi',
      text: 'Hello',
    });
    await w.settle();
    const received = w.receiver.requests.filter((r) => r.path === '/queued');
    expect(received).toHaveLength(1);
    expect(received[0]!.headers['x-usesend-event']).toBe('email.queued');
    const event = webhooks(hook.secret).constructEvent(received[0]!.body, { headers: received[0]!.headers });
    expect(event).toMatchObject({ type: 'email.queued', data: { emailId } });
  });
});
