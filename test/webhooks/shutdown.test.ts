// A worker stopping while a delivery is in flight hands the call back (handBackCalls): PENDING, due
// at once, its claimed attempt returned, so another worker sends it without waiting for the lease.
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { SendingTeam } from '../emails/support.ts';
import { createWebhook, startWebhookHarness, type CallJson, type WebhookHarness } from './support.ts';

let w: WebhookHarness;
let team: SendingTeam;

beforeAll(async () => {
  // Shorter than the 15 s default: stopping closes the agent, which waits for the hanging request.
  w = await startWebhookHarness({ requestTimeoutMs: 5_000 });
  team = await w.h.team({ plan: 'pro' });
});
afterAll(async () => w?.close());

it('a call still in flight when the worker stops goes back to PENDING with its attempt returned', async () => {
  const hook = await createWebhook(w, team.key, { url: w.url(), eventTypes: [] });
  w.receiver.enqueue('hang');
  const sent = await w.request(team.key, 'POST', `/v1/webhooks/${hook.id}/test`);
  expect(sent.statusCode).toBe(202);
  w.runner.wake();
  await w.receiver.waitForRequests(1, 30_000);

  // No grace: the dispatcher hands back what it holds at once.
  const report = await w.runner.stop({ timeoutMs: 0 });
  // Calls another file of this worker left due may have been in flight too (the database is shared);
  // this one's hand-back is what the read below checks.
  expect(report.releasedRows).toBeGreaterThanOrEqual(1);

  const response = await w.request(team.key, 'GET', `/v1/webhooks/calls/${sent.json().callId}`);
  expect(response.json()).toMatchObject<Partial<CallJson>>({ status: 'PENDING', attempt: 0 });
  expect(new Date(response.json().nextAttemptAt).getTime()).toBe(w.h.t.clock.now().getTime());
});
