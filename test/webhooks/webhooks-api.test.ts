// The Webhooks API through HTTP: the resource's shape and lifecycle, every access rule of the
// contract's Authentication table, the limits at their edges, the plan's count, hostile URLs, and the
// emails to the owner and admins that name the key.
import { simpleParser } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminRequest } from '../support/factory.ts';
import type { SendingTeam } from '../emails/support.ts';
import { createWebhook, startWebhookHarness, type WebhookHarness } from './support.ts';

let w: WebhookHarness;
let team: SendingTeam;

beforeAll(async () => {
  w = await startWebhookHarness();
  team = await w.h.team({ plan: 'pro' });
});
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

describe('access rules (contract: Authentication)', () => {
  it('list: full and read only keys; send-only and live AI 403 SCOPE_DENIED; domain-limited 403 DOMAIN_PINNED', async () => {
    const readonly = await team.makeKey('readonly');
    const sending = await team.makeKey('sending');
    const liveAi = await team.makeKey('live_ai');
    const pinned = await team.makeKey('full', { domainId: team.domain.id });
    expect((await w.request(readonly.key, 'GET', '/v1/webhooks')).statusCode).toBe(200);
    for (const key of [sending.key, liveAi.key]) {
      const response = await w.request(key, 'GET', '/v1/webhooks');
      expect(response.statusCode).toBe(403);
      expect(response.json().error.code).toBe('SCOPE_DENIED');
    }
    const response = await w.request(pinned.key, 'GET', '/v1/webhooks');
    expect(response.statusCode).toBe(403);
    expect(response.json().error.code).toBe('DOMAIN_PINNED');
  });

  it('read and call log: full access only (a read only key is refused)', async () => {
    const hook = await createWebhook(w, team.key, { url: w.url(), eventTypes: [] });
    const readonly = await team.makeKey('readonly');
    for (const path of [`/v1/webhooks/${hook.id}`, '/v1/webhooks/calls']) {
      const response = await w.request(readonly.key, 'GET', path);
      expect(response.statusCode).toBe(403);
      expect(response.json().error.code).toBe('SCOPE_DENIED');
    }
  });

  it("changes need a full access key made by a team admin; a member's full key is FORBIDDEN but may retry", async () => {
    const hook = await createWebhook(w, team.key, { url: w.url(), eventTypes: [] });
    const memberId = await team.addMember('MEMBER');
    const memberKey = await team.makeKey('full', { memberId });
    const unknownMaker = await team.makeKey('full', { memberId: null });
    const adminKey = await team.makeKey('full', { memberId: await team.addMember('ADMIN') });
    for (const key of [memberKey.key, unknownMaker.key]) {
      for (const [method, path, body] of [
        ['POST', '/v1/webhooks', { url: w.url(), eventTypes: [] }],
        ['PATCH', `/v1/webhooks/${hook.id}`, { description: 'x' }],
        ['POST', `/v1/webhooks/${hook.id}/status`, { status: 'PAUSED' }],
        ['POST', `/v1/webhooks/${hook.id}/test`],
        ['POST', `/v1/webhooks/${hook.id}/rotate-secret`],
        ['DELETE', `/v1/webhooks/${hook.id}`],
      ] as const) {
        const response = await w.request(key, method, path, body);
        expect(response.statusCode, `${method} ${path}`).toBe(403);
        expect(response.json().error.code).toBe('FORBIDDEN');
      }
    }
    expect(
      (await w.request(adminKey.key, 'PATCH', `/v1/webhooks/${hook.id}`, { description: 'admin' })).statusCode,
    ).toBe(200);
    // Retry is open to any full access key: the member's key gets past the policy (404: no such call).
    const retry = await w.request(memberKey.key, 'POST', '/v1/webhooks/calls/msg_nope/retry');
    expect(retry.statusCode).toBe(404);
    const sending = await team.makeKey('sending');
    const refused = await w.request(sending.key, 'POST', '/v1/webhooks/calls/msg_nope/retry');
    expect(refused.json().error.code).toBe('SCOPE_DENIED');
    const pinned = await team.makeKey('full', { domainId: team.domain.id });
    expect((await w.request(pinned.key, 'POST', '/v1/webhooks/calls/msg_nope/retry')).json().error.code).toBe(
      'DOMAIN_PINNED',
    );
  });
});

describe('limits', () => {
  it('url at most 2,048 characters, description at most 500, known event types', async () => {
    const base = w.url('edge', '/');
    const longest = base + 'a'.repeat(2048 - base.length);
    expect((await w.request(team.key, 'POST', '/v1/webhooks', { url: longest, eventTypes: [] })).statusCode).toBe(201);
    const tooLong = await w.request(team.key, 'POST', '/v1/webhooks', { url: longest + 'a', eventTypes: [] });
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json().error.message).toMatch(/url/);
    expect(
      (
        await w.request(team.key, 'POST', '/v1/webhooks', {
          url: w.url(),
          eventTypes: [],
          description: 'd'.repeat(501),
        })
      ).statusCode,
    ).toBe(400);
    expect(
      (await w.request(team.key, 'POST', '/v1/webhooks', { url: w.url(), eventTypes: ['email.nope'] })).statusCode,
    ).toBe(400);
    expect((await w.request(team.key, 'POST', '/v1/webhooks', { url: w.url() })).statusCode).toBe(400);
  });

  it('unknown domainIds: 404 on create and on update', async () => {
    const created = await w.request(team.key, 'POST', '/v1/webhooks', {
      url: w.url(),
      eventTypes: [],
      domainIds: [team.domain.id, 987654],
    });
    expect(created.statusCode).toBe(404);
    expect(created.json().error.message).toMatch(/987654/);
    const hook = await createWebhook(w, team.key, { url: w.url(), eventTypes: [] });
    expect((await w.request(team.key, 'PATCH', `/v1/webhooks/${hook.id}`, { domainIds: [987654] })).statusCode).toBe(
      404,
    );
  });

  it("the plan's webhook count: the 6th on the free plan is 403 FORBIDDEN", async () => {
    const small = await w.h.team();
    for (let i = 0; i < 5; i++) await createWebhook(w, small.key, { url: w.url(), eventTypes: [] });
    const refused = await w.request(small.key, 'POST', '/v1/webhooks', { url: w.url(), eventTypes: [] });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.code).toBe('FORBIDDEN');
  });

  it('20 creations a minute, 10 tests, 10 rotations, 30 retries: the next answers 429 with Retry-After', async () => {
    const busy = await w.h.team({ plan: 'pro' });
    for (let i = 0; i < 20; i++) await createWebhook(w, busy.key, { url: w.url(), eventTypes: [] });
    const refused = await w.request(busy.key, 'POST', '/v1/webhooks', { url: w.url(), eventTypes: [] });
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error.code).toBe('RATE_LIMITED');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);

    const hook = (await w.request(busy.key, 'GET', '/v1/webhooks')).json().data[0];
    for (let i = 0; i < 10; i++)
      expect((await w.request(busy.key, 'POST', `/v1/webhooks/${hook.id}/test`)).statusCode).toBe(202);
    expect((await w.request(busy.key, 'POST', `/v1/webhooks/${hook.id}/test`)).statusCode).toBe(429);
    for (let i = 0; i < 10; i++)
      expect((await w.request(busy.key, 'POST', `/v1/webhooks/${hook.id}/rotate-secret`)).statusCode).toBe(200);
    expect((await w.request(busy.key, 'POST', `/v1/webhooks/${hook.id}/rotate-secret`)).statusCode).toBe(429);
    for (let i = 0; i < 30; i++)
      expect((await w.request(busy.key, 'POST', '/v1/webhooks/calls/msg_nope/retry')).statusCode).toBe(404);
    expect((await w.request(busy.key, 'POST', '/v1/webhooks/calls/msg_nope/retry')).statusCode).toBe(429);
    // The minute passes: creations are allowed again.
    w.h.t.clock.advance(61_000);
    expect((await w.request(busy.key, 'POST', `/v1/webhooks/${hook.id}/rotate-secret`)).statusCode).toBe(200);
  });

  it('call list: limit 1 to 50, a bad status or a foreign cursor is 400', async () => {
    const other = await w.h.team();
    const hook = await createWebhook(w, other.key, { url: w.url(), eventTypes: [] });
    for (let i = 0; i < 3; i++) await w.request(other.key, 'POST', `/v1/webhooks/${hook.id}/test`);
    const page = (await w.request(other.key, 'GET', '/v1/webhooks/calls?limit=2')).json();
    expect(page.data).toHaveLength(2);
    expect(page.nextCursor).toEqual(expect.any(String));
    const rest = (
      await w.request(other.key, 'GET', `/v1/webhooks/calls?limit=2&cursor=${encodeURIComponent(page.nextCursor)}`)
    ).json();
    expect(rest.data).toHaveLength(1);
    expect(rest.nextCursor).toBeNull();
    expect(new Set([...page.data, ...rest.data].map((c: { id: string }) => c.id)).size).toBe(3);
    expect(
      (await w.request(team.key, 'GET', `/v1/webhooks/calls?cursor=${encodeURIComponent(page.nextCursor)}`)).statusCode,
    ).toBe(400);
    expect((await w.request(other.key, 'GET', '/v1/webhooks/calls?limit=51')).statusCode).toBe(400);
    expect((await w.request(other.key, 'GET', '/v1/webhooks/calls?limit=0')).statusCode).toBe(400);
    expect((await w.request(other.key, 'GET', '/v1/webhooks/calls?status=LOST')).statusCode).toBe(400);
    await w.settle();
    expect((await w.request(other.key, 'GET', '/v1/webhooks/calls?status=DELIVERED')).json().data.length).toBe(3);
    expect((await w.request(other.key, 'GET', '/v1/webhooks/calls?status=PENDING')).json().data).toEqual([]);
  });
});

describe('hostile URLs are refused with 400 at create and at update', () => {
  it('names and literals that are not public', async () => {
    w.dns.set('private.hooks.test', 'A', [{ type: 'A', address: '10.1.2.3' }]);
    w.dns.set('metadata.hooks.test', 'A', [{ type: 'A', address: '169.254.169.254' }]);
    w.dns.set('mapped.hooks.test', 'AAAA', [{ type: 'AAAA', address: '::ffff:10.0.0.1' }]);
    const hostile = [
      'http://example.com/hook',
      'https://127.0.0.1/hook',
      'https://2130706433/',
      'https://0x7f.1/',
      'https://[::1]/',
      'https://[::ffff:127.0.0.1]/',
      'https://localhost/',
      'https://localhost./',
      'https://intranet/',
      'https://user:pass@example.com/',
      'https://private.hooks.test/',
      'https://metadata.hooks.test/',
      'https://mapped.hooks.test/',
      'https://nowhere.hooks.test/',
    ];
    const hook = await createWebhook(w, team.key, { url: w.url(), eventTypes: [] });
    for (const url of hostile) {
      const created = await w.request(team.key, 'POST', '/v1/webhooks', { url, eventTypes: [] });
      expect(created.statusCode, url).toBe(400);
      expect(created.json().error.code).toBe('BAD_REQUEST');
      expect(created.json().error.message).toMatch(/^url: /);
      expect((await w.request(team.key, 'PATCH', `/v1/webhooks/${hook.id}`, { url })).statusCode, url).toBe(400);
    }
    expect((await w.request(team.key, 'GET', `/v1/webhooks/${hook.id}`)).json().url).toBe(hook.url);
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
