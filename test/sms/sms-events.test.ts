// sms.sent and sms.delivered reach a team's webhook over HTTPS through the event catalogue, recorded
// in the transaction that moves the status, with the number masked; a webhook subscribed to other
// events gets none.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { QueueRunner } from '../../src/queue/index.ts';
import { smsDeliveryQueue } from '../../src/sms/index.ts';
import { adminRequest, bearer } from '../support/factory.ts';
import { createWebhook, startWebhookHarness, type WebhookHarness } from '../webhooks/support.ts';

let w: WebhookHarness;

beforeAll(async () => {
  w = await startWebhookHarness();
}, 60_000);
afterAll(async () => {
  await w.close();
});

it('delivers sms.sent then sms.delivered to a subscribed webhook, masked, and nothing to an email-only one', async () => {
  const team = await w.h.team();
  const { app, deps, clock } = w.h.t;
  await adminRequest(app, 'PATCH', `/teams/${team.id}`, { smsEnabled: true });
  await adminRequest(app, 'POST', `/teams/${team.id}/wallet/top-ups`, { amountMinor: 1000 });
  await createWebhook(w, team.key, { url: w.url('sms', '/sms'), eventTypes: ['sms.sent', 'sms.delivered'] });
  await createWebhook(w, team.key, { url: w.url('mail', '/mail'), eventTypes: ['email.sent'] });

  const sent = await app.inject({
    method: 'POST',
    url: '/api/v1/sms',
    headers: bearer(team.key),
    payload: { to: '+14155550123', text: 'hello' },
  });
  expect(sent.statusCode, sent.body).toBe(201);
  const runner = new QueueRunner({
    database: deps.database,
    queues: [smsDeliveryQueue({ provider: deps.smsProvider })],
    clock,
    pollMs: 50,
  });
  await runner.start();
  runner.notify('sms-delivery');
  await runner.idle();
  await runner.stop();
  await w.settle();

  const bodies = w.receiver.requests.filter((r) => r.path === '/sms').map((r) => JSON.parse(r.body));
  expect(bodies.map((b) => b.type)).toEqual(['sms.sent', 'sms.delivered']);
  for (const body of bodies) {
    expect(body.data).toMatchObject({ id: sent.json().id, to: '+*******0123', segments: 1 });
    expect(JSON.stringify(body)).not.toContain('4155550123');
  }
  expect(w.receiver.requests.filter((r) => r.path === '/mail')).toEqual([]);
});
