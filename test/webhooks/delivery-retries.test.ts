// Webhook delivery's retries, with the clock walking the whole schedule: Retry-After, 410, timeouts,
// dropped connections, redirects, manual retries and the 5-day auto-disable rule.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { SendingTeam } from '../emails/support.ts';
import { MAX_ATTEMPTS } from '../../src/webhooks/retry-schedule.ts';
import {
  callsOf,
  createWebhook,
  freshMinute,
  startDeliverySuite,
  type DeliverySuite,
  type WebhookHarness,
} from './support.ts';

let w: WebhookHarness, team: SendingTeam, call: DeliverySuite['call'], testEvent: DeliverySuite['testEvent'];
beforeAll(async () => void ({ w, team, call, testEvent } = await startDeliverySuite()));
beforeEach(() => freshMinute(w));
afterAll(async () => w?.close());

const SECOND = 1000;
const HOUR = 3600 * SECOND;
const DAY = 24 * HOUR;
// The schedule's waits after attempts 1..7, plus 20% jitter and a margin.
const WAITS = [5 * SECOND, 5 * 60 * SECOND, 30 * 60 * SECOND, 2 * HOUR, 5 * HOUR, 10 * HOUR, 10 * HOUR];
const past = (ms: number) => Math.ceil(ms * 1.2) + SECOND;

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
