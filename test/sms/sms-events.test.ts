// sms.sent and sms.delivered reach a team's webhook over HTTPS through the event catalogue, recorded
// in the transaction that moves the status, with the number masked; a webhook subscribed to other
// events gets none.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { applyLeasedSmsChanges } from '../../src/sms/outcomes.ts';
import { adminRequest, bearer } from '../support/factory.ts';
import { deliverDueSms } from '../support/sms-delivery.ts';
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
  await deliverDueSms({ deps, clock });
  await w.settle();

  const bodies = w.receiver.requests.filter((r) => r.path === '/sms').map((r) => JSON.parse(r.body));
  // The log provider sends and delivers in one instant, and calls to one webhook go out side by side,
  // so the two may arrive in either order.
  expect(bodies.map((b) => b.type).sort()).toEqual(['sms.delivered', 'sms.sent']);
  for (const body of bodies) {
    expect(body.data).toMatchObject({ id: sent.json().id, to: '+*******0123', segments: 1 });
    expect(JSON.stringify(body)).not.toContain('4155550123');
  }
  expect(w.receiver.requests.filter((r) => r.path === '/mail')).toEqual([]);
});

it("writes a worker's outcomes only under its lease, with calls only for what it wrote", async () => {
  const team = await w.h.team();
  const { app, deps, clock } = w.h.t;
  await adminRequest(app, 'PATCH', `/teams/${team.id}`, { smsEnabled: true });
  await adminRequest(app, 'POST', `/teams/${team.id}/wallet/top-ups`, { amountMinor: 1000 });
  await createWebhook(w, team.key, { url: w.url('lease', '/lease'), eventTypes: ['sms.sent'] });
  const ids: string[] = [];
  for (const to of ['+14155550124', '+14155550125']) {
    const sent = await app.inject({
      method: 'POST',
      url: '/api/v1/sms',
      headers: bearer(team.key),
      payload: { to, text: 'hi' },
    });
    expect(sent.statusCode, sent.body).toBe(201);
    ids.push(sent.json().id);
  }
  const ours = new Date(clock.now().getTime() + 60_000);
  const theirs = new Date(ours.getTime() + 1);
  await deps.db.updateTable('sms_deliveries').set({ lease_until: ours }).where('sms_id', '=', ids[0]!).execute();
  await deps.db.updateTable('sms_deliveries').set({ lease_until: theirs }).where('sms_id', '=', ids[1]!).execute();
  const changes = (id: string) => [{ status: 'sent' as const, provider: 'log', providerMessageId: `p-${id}` }];
  const items = ids.map((id) => ({ id, changes: changes(id) }));
  const written = (await applyLeasedSmsChanges(deps.db, ours, items, clock.now())).map((row) => row.id);

  expect([...written]).toEqual([ids[0]]);
  const after = await deps.db
    .selectFrom('sms_messages')
    .select(['id', 'status'])
    .where('id', 'in', ids)
    .orderBy('id')
    .execute();
  expect(after.map((row) => row.status)).toEqual(ids[0]! < ids[1]! ? ['sent', 'queued'] : ['queued', 'sent']);
  // The written message left the queue and its provider's id finds it; the other is still queued.
  const queued = await deps.db.selectFrom('sms_deliveries').select('sms_id').where('sms_id', 'in', ids).execute();
  expect(queued.map((row) => row.sms_id)).toEqual([ids[1]]);
  const providerIds = await deps.db.selectFrom('sms_provider_ids').selectAll().where('sms_id', 'in', ids).execute();
  expect(providerIds).toEqual([{ provider: 'log', provider_message_id: `p-${ids[0]}`, sms_id: ids[0] }]);
  const calls = await deps.db
    .selectFrom('webhook_calls')
    .select(['type', 'payload'])
    .where('team_id', '=', team.id)
    .where('type', '=', 'sms.sent')
    .execute();
  expect(calls.map((call) => JSON.parse(call.payload).data.id)).toEqual([ids[0]]);
});
