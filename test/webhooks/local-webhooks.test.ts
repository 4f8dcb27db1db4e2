// Local webhooks (issue 46): with HERALD_WEBHOOK_ALLOW_CIDRS covering loopback, http://127.0.0.1 and
// http://localhost webhooks are created and delivered, signed, to a plain HTTP server on loopback; the
// same URLs are refused (400 naming the field and the variable) when the ranges do not cover them, a
// public http:// URL is refused whatever the ranges, and a name that leaves the ranges is refused at
// the next delivery.
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { SendingTeam } from '../emails/support.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { bearer, createTeam } from '../support/factory.ts';
import { HttpsReceiver } from '../support/https-receiver.ts';
import { createWebhook, freshMinute, startDeliverySuite, type DeliverySuite, type WebhookHarness } from './support.ts';

let w: WebhookHarness, team: SendingTeam, call: DeliverySuite['call'], testEvent: DeliverySuite['testEvent'];
let plain: HttpsReceiver;
beforeAll(async () => {
  ({ w, team, call, testEvent } = await startDeliverySuite());
  plain = await HttpsReceiver.start({ tls: false });
});
beforeEach(() => {
  freshMinute(w);
  plain.reset();
  plain.respondWith({ status: 200 });
});
afterAll(async () => {
  await plain?.close();
  await w?.close();
});

describe('HERALD_WEBHOOK_ALLOW_CIDRS=127.0.0.0/8', () => {
  it.each(['127.0.0.1', 'localhost'])(
    'an http://%s webhook is created and its event delivered over plain HTTP, signed',
    async (host) => {
      const url = `http://${host}:${plain.port}/hook?from=herald`;
      const hook = await createWebhook(w, team.key, { url, eventTypes: [] });
      expect(hook.url).toBe(url);
      const callId = await testEvent(hook.id);
      await w.settle();
      expect(plain.requests).toHaveLength(1);
      const [received] = plain.requests;
      expect(received!.path).toBe('/hook?from=herald');
      expect(received!.headers.host).toBe(`${host}:${plain.port}`);
      expect(received!.headers['webhook-id']).toBe(callId);
      const verified = new StandardWebhook(hook.secret).verify(
        received!.body,
        received!.headers as Record<string, string>,
      );
      expect(verified).toMatchObject({ type: 'webhook.test', data: { webhookId: hook.id } });
      expect(await call(callId)).toMatchObject({ status: 'DELIVERED', responseStatus: 200, lastError: null });
    },
  );

  it('PATCH repoints a webhook at a local http URL', async () => {
    const hook = await createWebhook(w, team.key, { url: w.url(), eventTypes: [] });
    const url = `http://localhost:${plain.port}/moved`;
    const patched = await w.request(team.key, 'PATCH', `/v1/webhooks/${hook.id}`, { url });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.json().url).toBe(url);
  });

  it('a public http:// URL is still refused', async () => {
    w.dns.set('public-http.hooks.test', 'A', [{ type: 'A', address: '93.184.216.34' }]);
    const response = await w.request(team.key, 'POST', '/v1/webhooks', {
      url: 'http://public-http.hooks.test/hook',
      eventTypes: [],
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toEqual({
      code: 'BAD_REQUEST',
      message:
        'url: url must use https (http is allowed when HERALD_WEBHOOK_ALLOW_CIDRS covers every address of the host)',
    });
  });

  it('an http:// name that resolves outside the ranges at delivery is refused before connecting', async () => {
    w.dns.set('drifter.hooks.test', 'A', [{ type: 'A', address: '127.0.0.1' }]);
    const hook = await createWebhook(w, team.key, {
      url: `http://drifter.hooks.test:${plain.port}/hook`,
      eventTypes: [],
    });
    const first = await testEvent(hook.id);
    await w.settle();
    expect(await call(first)).toMatchObject({ status: 'DELIVERED' });
    w.dns.set('drifter.hooks.test', 'A', [{ type: 'A', address: '93.184.216.34' }]);
    const second = await testEvent(hook.id);
    await w.settle();
    expect(await call(second)).toMatchObject({
      status: 'PENDING',
      responseStatus: null,
      lastError: expect.stringMatching(/drifter\.hooks\.test refused: url must use https/),
    });
    expect(plain.requests).toHaveLength(1);
  });
});

describe.each([
  ['unset', []],
  ['10.0.0.0/8', ['10.0.0.0/8']],
])('HERALD_WEBHOOK_ALLOW_CIDRS=%s (loopback not covered)', (_label, allowCidrs) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ config: { webhookAllowCidrs: allowCidrs } });
  });
  afterAll(async () => t?.close());

  it.each([
    [
      'http://127.0.0.1:8080/hook',
      /^url: url (must use https|host must be a name, not an IP address) \(.*HERALD_WEBHOOK_ALLOW_CIDRS/,
    ],
    [
      'http://localhost:8080/hook',
      /^url: url (must use https|host must not be localhost) \(.*HERALD_WEBHOOK_ALLOW_CIDRS/,
    ],
    ['https://127.0.0.1/hook', /^url: url host must be a name, not an IP address \(.*HERALD_WEBHOOK_ALLOW_CIDRS/],
    ['https://localhost/hook', /^url: url host must not be localhost \(.*HERALD_WEBHOOK_ALLOW_CIDRS/],
  ])('%s answers 400 naming the field and the variable', async (url, message) => {
    const owner = await createTeam(t.app, { plan: 'pro' });
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/v1/webhooks',
      headers: bearer(owner.key),
      payload: { url, eventTypes: [] },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.code).toBe('BAD_REQUEST');
    expect(response.json().error.message).toMatch(message);
  });
});
