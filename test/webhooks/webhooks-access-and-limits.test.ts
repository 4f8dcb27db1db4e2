// The Webhooks API's rules: every access rule of the contract's Authentication table, the limits at
// their edges, the plan's count, rate limits, the call list's bounds, and hostile URLs.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SendingTeam } from '../emails/support.ts';
import { createWebhook, startWebhookTeam, type WebhookHarness } from './support.ts';

let w: WebhookHarness, team: SendingTeam;
beforeAll(async () => void ({ w, team } = await startWebhookTeam()));
afterAll(async () => w?.close());

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
    // Loopback (127.0.0.0/8) is this harness's HERALD_WEBHOOK_ALLOW_CIDRS: URLs inside it, localhost
    // and 127.x literals included, are accepted (local-webhooks.test.ts); everything else is refused.
    w.dns.set('public.hooks.test', 'A', [{ type: 'A', address: '93.184.216.34' }]);
    const hostile = [
      'http://example.com/hook',
      'http://public.hooks.test/hook',
      'https://10.0.0.1/hook',
      'https://167772161/',
      'https://0xa.1/',
      'https://93.184.216.34/',
      'https://[::1]/',
      'https://[::ffff:127.0.0.1]/',
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
