// Webhook delivery end to end: events from the real send path fan out to calls, the dispatcher
// POSTs them over HTTPS to the loopback receiver (reached by name through the DNS server, TLS
// checked against the test CA), signed so that the `standardwebhooks` package verifies them. The
// clock walks the whole retry schedule, Retry-After, 410, timeouts, dropped connections, manual
// retries and the 5-day auto-disable rule; a name that turns private after creation is refused.
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { emails, type SendingTeam } from '../emails/support.ts';
import { MAX_ATTEMPTS } from '../../src/webhooks/retry-schedule.ts';
import { callsOf, createWebhook, startWebhookHarness, type CallJson, type WebhookHarness } from './support.ts';

const SECOND = 1000;
const HOUR = 3600 * SECOND;
const DAY = 24 * HOUR;
// The schedule's waits after attempts 1..7, plus 20% jitter and a margin.
const WAITS = [5 * SECOND, 5 * 60 * SECOND, 30 * 60 * SECOND, 2 * HOUR, 5 * HOUR, 10 * HOUR, 10 * HOUR];
const past = (ms: number) => Math.ceil(ms * 1.2) + SECOND;

let w: WebhookHarness;
let team: SendingTeam;

beforeAll(async () => {
  w = await startWebhookHarness({ requestTimeoutMs: 1_500 });
  team = await w.h.team({ plan: 'pro' });
});
beforeEach(() => {
  // A fresh minute: the team's 10 test events a minute would otherwise run out across tests.
  w.h.t.clock.advance(61_000);
  w.receiver.reset();
  w.receiver.respondWith({ status: 200 });
});
afterAll(async () => w?.close());

async function call(id: string): Promise<CallJson & { payload: string }> {
  const response = await w.request(team.key, 'GET', `/v1/webhooks/calls/${id}`);
  expect(response.statusCode).toBe(200);
  return response.json();
}

async function testEvent(webhookId: string): Promise<string> {
  const response = await w.request(team.key, 'POST', `/v1/webhooks/${webhookId}/test`);
  expect(response.statusCode).toBe(202);
  return response.json().callId;
}

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

describe('retries', () => {
  it('walks the whole schedule (immediately, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h), then FAILED; a manual retry starts afresh', async () => {
    const hook = await createWebhook(w, team.key, { url: w.url(), eventTypes: [] });
    w.receiver.respondWith({ status: 500, body: 'oops' });
    const callId = await testEvent(hook.id);
    await w.settle();
    expect(await call(callId)).toMatchObject({
      status: 'PENDING',
      attempt: 1,
      responseStatus: 500,
      responseText: 'oops',
      lastError: 'the endpoint answered 500',
    });
    for (const [i, wait] of WAITS.entries()) {
      const before = await call(callId);
      const due = new Date(before.nextAttemptAt!).getTime() - w.h.t.clock.now().getTime();
      // ±20% around the step
      expect(due).toBeGreaterThanOrEqual(wait * 0.8 - 1);
      expect(due).toBeLessThanOrEqual(wait * 1.2 + 1);
      w.h.t.clock.advance(Math.ceil(wait * 0.8) - 1000);
      await w.settle();
      expect((await call(callId)).attempt, 'not before its time').toBe(i + 1);
      w.h.t.clock.advance(past(wait));
      await w.settle();
      expect((await call(callId)).attempt).toBe(i + 2);
    }
    const failed = await call(callId);
    expect(failed).toMatchObject({ status: 'FAILED', attempt: MAX_ATTEMPTS, nextAttemptAt: null });
    expect(w.receiver.requests).toHaveLength(MAX_ATTEMPTS);
    expect(new Set(w.receiver.requests.map((r) => r.headers['webhook-id']))).toEqual(new Set([callId]));
    const hookNow = (await w.request(team.key, 'GET', `/v1/webhooks/${hook.id}`)).json();
    expect(hookNow.consecutiveFailures).toBe(MAX_ATTEMPTS);
    expect(hookNow.lastFailureAt).toEqual(expect.any(String));

    w.receiver.respondWith({ status: 204 });
    const retried = await w.request(team.key, 'POST', `/v1/webhooks/calls/${callId}/retry`);
    expect(retried.statusCode).toBe(202);
    expect(retried.json()).toEqual({ callId });
    await w.settle();
    expect(await call(callId)).toMatchObject({ status: 'DELIVERED', attempt: 1, responseStatus: 204 });
    expect((await w.request(team.key, 'GET', `/v1/webhooks/${hook.id}`)).json().consecutiveFailures).toBe(0);
    const again = await w.request(team.key, 'POST', `/v1/webhooks/calls/${callId}/retry`);
    expect(again.statusCode).toBe(409);
    expect(again.json().error.code).toBe('CONFLICT');
  });

  it('a call still pending a retry answers 409 to a manual retry', async () => {
    const hook = await createWebhook(w, team.key, { url: w.url(), eventTypes: [] });
    w.receiver.respondWith({ status: 502 });
    const callId = await testEvent(hook.id);
    await w.settle();
    expect((await call(callId)).status).toBe('PENDING');
    expect((await w.request(team.key, 'POST', `/v1/webhooks/calls/${callId}/retry`)).statusCode).toBe(409);
  });

  it('410 Gone fails the call at once', async () => {
    const hook = await createWebhook(w, team.key, { url: w.url(), eventTypes: [] });
    w.receiver.respondWith({ status: 410 });
    const callId = await testEvent(hook.id);
    await w.settle();
    expect(await call(callId)).toMatchObject({
      status: 'FAILED',
      attempt: 1,
      responseStatus: 410,
      nextAttemptAt: null,
    });
    const listed = (await w.request(team.key, 'GET', '/v1/webhooks'))
      .json()
      .data.find((h: { id: string }) => h.id === hook.id);
    expect(listed.last24h).toEqual({ ok: 0, retried: 0, failed: 1 });
  });

  it('429 and 503 with Retry-After wait that long (within the schedule); a long one is capped at 10 h', async () => {
    const hook = await createWebhook(w, team.key, { url: w.url(), eventTypes: [] });
    w.receiver.enqueue(
      { status: 429, headers: { 'retry-after': '120' } },
      { status: 503, headers: { 'retry-after': String(3 * 24 * 3600) } },
    );
    const callId = await testEvent(hook.id);
    await w.settle();
    let detail = await call(callId);
    expect(new Date(detail.nextAttemptAt!).getTime() - w.h.t.clock.now().getTime()).toBe(120_000);
    w.h.t.clock.advance(121_000);
    await w.settle();
    detail = await call(callId);
    expect(detail).toMatchObject({ attempt: 2, responseStatus: 503, status: 'PENDING' });
    expect(new Date(detail.nextAttemptAt!).getTime() - w.h.t.clock.now().getTime()).toBe(10 * HOUR);
  });

  it('a hanging endpoint and a dropped connection are retried; a redirect is not followed', async () => {
    const hook = await createWebhook(w, team.key, { url: w.url(), eventTypes: [] });
    w.receiver.enqueue('hang');
    const hung = await testEvent(hook.id);
    await w.settle();
    expect(await call(hung)).toMatchObject({
      status: 'PENDING',
      attempt: 1,
      responseStatus: null,
      lastError: expect.stringMatching(/within 1.5 s|timeout/i),
    });

    w.receiver.enqueue('close');
    const dropped = await testEvent(hook.id);
    await w.settle();
    expect(await call(dropped)).toMatchObject({
      status: 'PENDING',
      attempt: 1,
      responseStatus: null,
      lastError: expect.any(String),
    });

    w.receiver.enqueue({ status: 302, headers: { location: `https://elsewhere.hooks.test:${w.receiver.port}/` } });
    const moved = await testEvent(hook.id);
    await w.settle();
    expect(await call(moved)).toMatchObject({ status: 'PENDING', responseStatus: 302 });
    expect(w.receiver.requests.filter((r) => r.path === '/')).toHaveLength(0);
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

describe('auto-disable after 5 days of failures', () => {
  it('a webhook whose attempts all failed for 5 days becomes AUTO_DISABLED, pending calls DISCARDED, admins emailed; ACTIVE again resets it', async () => {
    const owned = await w.h.team();
    const hook = await createWebhook(w, owned.key, { url: w.url(), eventTypes: [] });
    w.receiver.respondWith({ status: 500 });
    const send = async () =>
      (await w.request(owned.key, 'POST', `/v1/webhooks/${hook.id}/test`)).json().callId as string;
    await send();
    await w.settle();
    const start = w.h.t.clock.now().getTime();
    // A failing event a day; each day's calls keep failing.
    for (let day = 1; day <= 4; day++) {
      w.h.t.clock.set(new Date(start + day * DAY));
      await send();
      await w.settle();
      expect((await w.request(owned.key, 'GET', `/v1/webhooks/${hook.id}`)).json().status).toBe('ACTIVE');
    }
    w.h.t.clock.set(new Date(start + 5 * DAY + HOUR));
    const pending = await send();
    await w.settle();
    const disabled = (await w.request(owned.key, 'GET', `/v1/webhooks/${hook.id}`)).json();
    expect(disabled.status).toBe('AUTO_DISABLED');
    expect(disabled.consecutiveFailures).toBeGreaterThanOrEqual(5);
    const calls = await callsOf(w, owned.key, hook.id);
    expect(calls.filter((c) => c.status === 'PENDING' || c.status === 'IN_PROGRESS')).toEqual([]);
    expect(calls.some((c) => c.status === 'DISCARDED')).toBe(true);
    expect(calls.find((c) => c.id === pending)).toBeDefined();
    const notices = () =>
      w.h.t.deps.db
        .selectFrom('team_notices')
        .select(['kind', 'sent_at'])
        .where('team_id', '=', owned.id)
        .where('kind', '=', 'webhook.auto_disabled')
        .execute();
    expect(await notices()).toHaveLength(1);
    // Written with the outcome that disabled it; the notices queue mails it right after.
    await expect.poll(async () => (await notices())[0]!.sent_at, { timeout: 5_000, interval: 20 }).not.toBeNull();

    // No calls are made for events while disabled.
    const before = w.receiver.requests.length;
    await send();
    await w.settle();
    expect(w.receiver.requests.length).toBe(before);

    const discarded = calls.find((c) => c.status === 'DISCARDED')!;
    const active = (await w.request(owned.key, 'POST', `/v1/webhooks/${hook.id}/status`, { status: 'ACTIVE' })).json();
    expect(active).toMatchObject({ status: 'ACTIVE', consecutiveFailures: 0 });
    w.receiver.respondWith({ status: 200 });
    expect((await w.request(owned.key, 'POST', `/v1/webhooks/calls/${discarded.id}/retry`)).statusCode).toBe(202);
    await w.settle();
    expect((await w.request(owned.key, 'GET', `/v1/webhooks/calls/${discarded.id}`)).json().status).toBe('DELIVERED');
  });
});
