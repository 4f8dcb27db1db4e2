// The Webhooks API through HTTP: the resource's shape and lifecycle, another team's webhook answering
// 404, and the emails to the owner and admins that name the key.
import { simpleParser } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminRequest } from '../support/factory.ts';
import type { SendingTeam } from '../emails/support.ts';
import { createWebhook, startWebhookTeam, type WebhookHarness } from './support.ts';

let w: WebhookHarness, team: SendingTeam;
beforeAll(async () => void ({ w, team } = await startWebhookTeam()));
afterAll(async () => w?.close());

describe('webhook lifecycle', () => {
  it('creates with the secret shown once, reads it masked, lists newest first with last24h', async () => {
    const first = await createWebhook(w, team.key, { url: w.url(), eventTypes: [] });
    w.h.t.clock.advance(1);
    const created = await createWebhook(w, team.key, {
      url: w.url(),
      eventTypes: ['email.delivered', 'email.bounced'],
      description: 'CRM sync',
      domainIds: [team.domain.id],
    });
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(created).toMatchObject({
      status: 'ACTIVE',
      description: 'CRM sync',
      eventTypes: ['email.delivered', 'email.bounced'],
      domainIds: [team.domain.id],
      consecutiveFailures: 0,
      apiVersion: null,
      lastFailureAt: null,
      lastSuccessAt: null,
    });
    expect(created.secretHint).toMatch(/^whsec_\*{8}.{4}$/);
    expect(created.secretHint).not.toContain((created.secret as string).slice(6, 20));

    const read = (await w.request(team.key, 'GET', `/v1/webhooks/${created.id}`)).json();
    expect(read.secret).toBeUndefined();
    expect(read.last24h).toBeUndefined();
    expect(read.secretHint).toBe(created.secretHint);

    const list = (await w.request(team.key, 'GET', '/v1/webhooks')).json();
    const ids = list.data.map((hook: { id: string }) => hook.id);
    expect(ids.indexOf(created.id)).toBeLessThan(ids.indexOf(first.id));
    expect(list.data[0].last24h).toEqual({ ok: 0, retried: 0, failed: 0 });
    expect(list.data.every((hook: { secret?: string }) => hook.secret === undefined)).toBe(true);
  });

  it('PATCH changes only what is sent; description null clears it; the secret stays', async () => {
    const hook = await createWebhook(w, team.key, {
      url: w.url(),
      eventTypes: ['email.sent'],
      description: 'keep me?',
    });
    const patched = await w.request(team.key, 'PATCH', `/v1/webhooks/${hook.id}`, { eventTypes: [] });
    expect(patched.statusCode).toBe(200);
    expect(patched.json()).toMatchObject({
      eventTypes: [],
      description: 'keep me?',
      url: hook.url,
      secretHint: hook.secretHint,
    });
    const cleared = (await w.request(team.key, 'PATCH', `/v1/webhooks/${hook.id}`, { description: null })).json();
    expect(cleared.description).toBeNull();
    expect(cleared.eventTypes).toEqual([]);
  });

  it('rotates the secret: a new one is shown once and the hint changes', async () => {
    const hook = await createWebhook(w, team.key, { url: w.url(), eventTypes: [] });
    const rotated = await w.request(team.key, 'POST', `/v1/webhooks/${hook.id}/rotate-secret`);
    expect(rotated.statusCode).toBe(200);
    expect(rotated.json().secret).toMatch(/^whsec_/);
    expect(rotated.json().secret).not.toBe(hook.secret);
    expect(rotated.json().secretHint).not.toBe(hook.secretHint);
  });

  it('status: PAUSED, then ACTIVE; 400 for another status', async () => {
    const hook = await createWebhook(w, team.key, { url: w.url(), eventTypes: [] });
    expect(
      (await w.request(team.key, 'POST', `/v1/webhooks/${hook.id}/status`, { status: 'PAUSED' })).json().status,
    ).toBe('PAUSED');
    expect(
      (await w.request(team.key, 'POST', `/v1/webhooks/${hook.id}/status`, { status: 'AUTO_DISABLED' })).statusCode,
    ).toBe(400);
    const active = (await w.request(team.key, 'POST', `/v1/webhooks/${hook.id}/status`, { status: 'ACTIVE' })).json();
    expect(active).toMatchObject({ status: 'ACTIVE', consecutiveFailures: 0 });
  });

  it('DELETE removes the webhook and its call log', async () => {
    const hook = await createWebhook(w, team.key, { url: w.url(), eventTypes: [] });
    const test = await w.request(team.key, 'POST', `/v1/webhooks/${hook.id}/test`);
    expect(test.statusCode).toBe(202);
    const callId = test.json().callId as string;
    const deleted = await w.request(team.key, 'DELETE', `/v1/webhooks/${hook.id}`);
    expect(deleted.json()).toEqual({ id: hook.id, deleted: true });
    expect((await w.request(team.key, 'GET', `/v1/webhooks/${hook.id}`)).statusCode).toBe(404);
    expect((await w.request(team.key, 'GET', `/v1/webhooks/calls/${callId}`)).statusCode).toBe(404);
    expect((await w.request(team.key, 'DELETE', `/v1/webhooks/${hook.id}`)).statusCode).toBe(404);
  });

  it("another team's webhook and call answer 404 like missing ones", async () => {
    const other = await w.h.team();
    const hook = await createWebhook(w, other.key, { url: w.url(), eventTypes: [] });
    const callId = (await w.request(other.key, 'POST', `/v1/webhooks/${hook.id}/test`)).json().callId;
    for (const [method, path, body] of [
      ['GET', `/v1/webhooks/${hook.id}`],
      ['PATCH', `/v1/webhooks/${hook.id}`, { description: 'x' }],
      ['POST', `/v1/webhooks/${hook.id}/status`, { status: 'PAUSED' }],
      ['POST', `/v1/webhooks/${hook.id}/test`],
      ['POST', `/v1/webhooks/${hook.id}/rotate-secret`],
      ['DELETE', `/v1/webhooks/${hook.id}`],
      ['GET', `/v1/webhooks/calls/${callId}`],
      ['POST', `/v1/webhooks/calls/${callId}/retry`],
    ] as const) {
      expect((await w.request(team.key, method, path, body)).statusCode, `${method} ${path}`).toBe(404);
    }
    const list = (await w.request(team.key, 'GET', `/v1/webhooks/calls?webhookId=${hook.id}`)).json();
    expect(list.data).toEqual([]);
  });
});

describe('emails to the owner and admins naming the key (contract: Webhooks rule 3)', () => {
  it('on create, repoint and delete, not on other changes', async () => {
    const noticed = await w.h.team();
    const adminId = await noticed.addMember('ADMIN');
    await noticed.addMember('MEMBER');
    const named = await adminRequest(w.h.app, 'POST', `/teams/${noticed.id}/api-keys`, {
      kind: 'full',
      memberId: noticed.ownerId,
      name: 'Deploy bot',
    });
    const hook = await createWebhook(w, named.key, { url: w.url(), eventTypes: [] });
    const moved = w.url();
    await w.request(named.key, 'PATCH', `/v1/webhooks/${hook.id}`, { description: 'no notice' });
    await w.request(named.key, 'PATCH', `/v1/webhooks/${hook.id}`, { url: moved });
    await w.request(named.key, 'DELETE', `/v1/webhooks/${hook.id}`);
    await w.settle();

    const notices = await w.h.t.deps.db
      .selectFrom('team_notices')
      .selectAll()
      .where('team_id', '=', noticed.id)
      .orderBy('id')
      .execute();
    expect(notices.map((n) => n.kind)).toEqual(['webhook.created', 'webhook.repointed', 'webhook.deleted']);
    const members = await w.h.t.deps.db
      .selectFrom('members')
      .select(['id', 'email', 'role'])
      .where('team_id', '=', noticed.id)
      .execute();
    const expected = members
      .filter((m) => m.role !== 'MEMBER')
      .map((m) => m.email)
      .sort();
    expect(members.some((m) => m.id === adminId)).toBe(true);
    for (const notice of notices) {
      expect([...notice.recipients].sort()).toEqual(expected);
      expect(notice.text).toContain(`"Deploy bot" (${named.id})`);
      expect(notice.sent_at).not.toBeNull();
    }
    expect(notices[1]!.text).toContain(moved);
    // The log transport recorded each as a real message from the instance's notices address.
    const owner = members.find((m) => m.role === 'OWNER')!.email;
    const sent = await w.h.t.deps.db
      .selectFrom('outbox')
      .select(['envelope_from', 'envelope_to', 'raw'])
      .where('envelope_from', '=', 'notices@mail.herald.test')
      .execute();
    const ours = sent.filter((row) => (row.envelope_to as string[]).includes(owner));
    expect(ours).toHaveLength(3);
    for (const row of ours)
      expect((await simpleParser(Buffer.from(row.raw))).text).toContain(`"Deploy bot" (${named.id})`);
  });
});
