// Webhook delivery end to end: events from the real send path fan out to calls, the dispatcher POSTs
// them over HTTPS to the loopback receiver (reached by name through the DNS server, TLS checked against
// the test CA), signed so that the `standardwebhooks` package verifies them; a name that turns private
// after creation is refused at the next delivery. Retries: delivery-retries.test.ts.
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { emails, type SendingTeam } from '../emails/support.ts';
import {
  callsOf,
  createWebhook,
  freshMinute,
  startDeliverySuite,
  type CallJson,
  type DeliverySuite,
  type WebhookHarness,
} from './support.ts';

let w: WebhookHarness, team: SendingTeam, call: DeliverySuite['call'], testEvent: DeliverySuite['testEvent'];
beforeAll(async () => void ({ w, team, call, testEvent } = await startDeliverySuite()));
beforeEach(() => freshMinute(w));
afterAll(async () => w?.close());

describe('signing and the request', () => {
  it('a test event is delivered once, verifiable with the standardwebhooks package, X-Service-Signature alongside', async () => {
    const hook = await createWebhook(w, team.key, { url: w.url('signed', '/in?src=herald'), eventTypes: [] });
    const callId = await testEvent(hook.id);
    await w.settle();
    expect(w.receiver.requests).toHaveLength(1);
    const [received] = w.receiver.requests;
    expect(received!.method).toBe('POST');
    expect(received!.path).toBe('/in?src=herald');
    expect(received!.headers['content-type']).toBe('application/json');
    expect(received!.headers['webhook-id']).toBe(callId);
    expect(received!.headers['x-service-signature']).toBe(received!.headers['webhook-signature']);
    const verified = new StandardWebhook(hook.secret).verify(
      received!.body,
      received!.headers as Record<string, string>,
    );
    expect(verified).toMatchObject({ type: 'webhook.test', data: { webhookId: hook.id } });
    expect(() =>
      new StandardWebhook(hook.secret).verify(
        received!.body.replace('test', 'tost'),
        received!.headers as Record<string, string>,
      ),
    ).toThrow();

    const detail = await call(callId);
    expect(detail).toMatchObject({
      id: callId,
      webhookId: hook.id,
      type: 'webhook.test',
      status: 'DELIVERED',
      attempt: 1,
      nextAttemptAt: null,
      lastError: null,
      responseStatus: 200,
      apiVersion: null,
      responseText: '',
    });
    expect(detail.responseTimeMs).toBeGreaterThanOrEqual(0);
    expect(JSON.parse(detail.payload)).toEqual(verified);
    const listed = (await w.request(team.key, 'GET', '/v1/webhooks'))
      .json()
      .data.find((h: { id: string }) => h.id === hook.id);
    expect(listed.last24h).toEqual({ ok: 1, retried: 0, failed: 0 });
    expect(listed.lastSuccessAt).toEqual(expect.any(String));
  });

  it('after a rotation every attempt is signed with the new secret only', async () => {
    const hook = await createWebhook(w, team.key, { url: w.url(), eventTypes: [] });
    const rotated = (await w.request(team.key, 'POST', `/v1/webhooks/${hook.id}/rotate-secret`)).json();
    await testEvent(hook.id);
    await w.settle();
    const [received] = w.receiver.requests;
    const headers = received!.headers as Record<string, string>;
    expect(() => new StandardWebhook(rotated.secret).verify(received!.body, headers)).not.toThrow();
    expect(() => new StandardWebhook(hook.secret).verify(received!.body, headers)).toThrow();
  });

  it('keeps only the first 2 KB of the answer, never its headers', async () => {
    const hook = await createWebhook(w, team.key, { url: w.url(), eventTypes: [] });
    w.receiver.respondWith({ status: 201, body: 'x'.repeat(5000), headers: { 'x-secret-header': 'do-not-keep' } });
    const detail = await call(await testEvent(hook.id).then(async (id) => (await w.settle(), id)));
    expect(detail.status).toBe('DELIVERED');
    expect(detail.responseStatus).toBe(201);
    expect(detail.responseText).toBe('x'.repeat(2048));
    expect(JSON.stringify(detail)).not.toContain('do-not-keep');
  });
});

describe('email events fan out to matching ACTIVE webhooks', () => {
  it('email.queued reaches every-event webhooks and type/domain filters select', async () => {
    // A team of its own: the other tests' every-event webhooks would get its events too.
    const team = await w.h.team({ plan: 'pro' });
    const other = await team.addDomain();
    const all = await createWebhook(w, team.key, { url: w.url(), eventTypes: [] });
    const queuedOnly = await createWebhook(w, team.key, {
      url: w.url(),
      eventTypes: ['email.queued'],
      domainIds: [team.domain.id],
    });
    const deliveredOnly = await createWebhook(w, team.key, { url: w.url(), eventTypes: ['email.delivered'] });
    const otherDomain = await createWebhook(w, team.key, { url: w.url(), eventTypes: [], domainIds: [other.id] });
    const paused = await createWebhook(w, team.key, { url: w.url(), eventTypes: [] });
    await w.request(team.key, 'POST', `/v1/webhooks/${paused.id}/status`, { status: 'PAUSED' });

    const emailId = await emails(w.h.app, team.key).sent({
      from: team.from(),
      to: 'someone@example.net',
      subject: 'Hello',
      text: 'hi',
    });
    await w.settle();
    const [allCalls, queuedCalls, deliveredCalls, otherCalls, pausedCalls] = (await Promise.all(
      [all, queuedOnly, deliveredOnly, otherDomain, paused].map((hook) => callsOf(w, team.key, hook.id)),
    )) as [CallJson[], CallJson[], CallJson[], CallJson[], CallJson[]];
    expect(allCalls.map((c) => c.type)).toEqual(['email.queued']);
    expect(queuedCalls.map((c) => c.type)).toEqual(['email.queued']);
    expect(deliveredCalls).toEqual([]);
    expect(otherCalls).toEqual([]);
    expect(pausedCalls).toEqual([]);
    const payload = JSON.parse(
      (await w.request(team.key, 'GET', `/v1/webhooks/calls/${allCalls[0]!.id}`)).json().payload,
    );
    expect(payload).toMatchObject({
      type: 'email.queued',
      data: {
        emailId,
        domainId: team.domain.id,
        status: 'QUEUED',
        from: team.from(),
        to: 'someone@example.net',
        subject: 'Hello',
      },
    });
    expect(new Date(payload.createdAt).toISOString()).toBe(payload.createdAt);
    const received = w.receiver.requests.filter((r) => JSON.parse(r.body).data.emailId === emailId);
    expect(received).toHaveLength(2);
  });
});

describe('the address is checked again at every delivery', () => {
  it('a name that resolves public at create and private at delivery is refused before connecting', async () => {
    w.dns.set('turncoat.hooks.test', 'A', [{ type: 'A', address: '127.0.0.1' }]);
    const hook = await createWebhook(w, team.key, {
      url: `https://turncoat.hooks.test:${w.receiver.port}/hook`,
      eventTypes: [],
    });
    w.dns.set('turncoat.hooks.test', 'A', [{ type: 'A', address: '10.20.30.40' }]);
    const callId = await testEvent(hook.id);
    await w.settle();
    expect(await call(callId)).toMatchObject({
      status: 'PENDING',
      responseStatus: null,
      lastError: expect.stringMatching(/non-public address 10\.20\.30\.40/),
    });
    expect(w.receiver.requests.filter((r) => String(r.headers.host).startsWith('turncoat.'))).toHaveLength(0);
  });
});

describe('every delivery checks its address', () => {
  it('an event sent right after a delivered one, once the name turned private, is refused (no check shared across batches)', async () => {
    w.dns.set('mover.hooks.test', 'A', [{ type: 'A', address: '127.0.0.1' }]);
    const hook = await createWebhook(w, team.key, {
      url: `https://mover.hooks.test:${w.receiver.port}/hook`,
      eventTypes: [],
    });
    const first = await testEvent(hook.id);
    await w.settle();
    expect(await call(first)).toMatchObject({ status: 'DELIVERED', responseStatus: 200 });
    // Within a second of the last check, with a keep-alive connection to the old address still pooled.
    w.dns.set('mover.hooks.test', 'A', [{ type: 'A', address: '10.20.30.41' }]);
    const second = await testEvent(hook.id);
    await w.settle();
    expect(await call(second)).toMatchObject({
      status: 'PENDING',
      responseStatus: null,
      lastError: expect.stringMatching(/non-public address 10\.20\.30\.41/),
    });
    expect(w.receiver.requests.filter((r) => String(r.headers.host).startsWith('mover.'))).toHaveLength(1);
  });
});
