// The team's own API keys through the public API (GET, POST /v1/api-keys, DELETE /v1/api-keys/{keyId}):
// the key shown once and working at once, revocation at once, a key never revoking itself, the
// access rule of each endpoint for each key kind and maker, other teams' keys and domains as
// missing, bad input changing nothing, lastUsedAt written at most once a minute, and each change
// emailing the owners and admins and entering the audit log.
import { heraldMailSigner } from '../../src/worker.ts';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { teamNoticesQueue } from '../../src/notices/index.ts';
import { QueueRunner } from '../../src/queue/index.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { bearer, createTeam, type KeyKind, type TestTeam } from '../support/factory.ts';

let t: TestApp;
let team: TestTeam;
beforeAll(async () => {
  t = await createTestApp();
  team = await createTeam(t.app);
});
afterAll(() => t.close());

type Method = 'GET' | 'POST' | 'DELETE';
const call = (key: string, method: Method, url: string, payload?: object): Promise<LightMyRequestResponse> =>
  t.app.inject({ method, url: `/api${url}`, headers: bearer(key), ...(payload === undefined ? {} : { payload }) });
const whoami = (key: string) => call(key, 'GET', '/v1/whoami');
const keysOf = async (key: string) =>
  (await call(key, 'GET', '/v1/api-keys')).json().data as { id: string; lastUsedAt: string | null }[];
const keyCount = async (teamId: number) =>
  (await t.deps.db.selectFrom('api_keys').select('id').where('team_id', '=', teamId).execute()).length;

describe('create, list, use and revoke', () => {
  it('shows the key once; it works at once; the list shows its hint, maker and last use, never the key', async () => {
    const created = await call(team.key, 'POST', '/v1/api-keys', { kind: 'sending', name: ' Deploy bot ' });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.headers['cache-control']).toBe('no-store');
    const made = created.json();
    expect(made).toEqual({
      id: expect.stringMatching(/^key_/),
      kind: 'sending',
      name: 'Deploy bot',
      domainId: null,
      createdBy: team.ownerId,
      hint: `hk_…${made.key.slice(-4)}`,
      createdAt: t.clock.now().toISOString(),
      lastUsedAt: null,
      key: expect.stringMatching(/^hk_[A-Za-z0-9_-]{43}$/),
    });
    expect((await whoami(made.key)).json()).toMatchObject({ teamId: team.id, keyId: made.id, kind: 'sending' });

    const list = await call(team.key, 'GET', '/v1/api-keys');
    expect(list.statusCode).toBe(200);
    expect(list.body).not.toMatch(/hk_[A-Za-z0-9_-]{43}/);
    const listed = list.json().data.find((k: { id: string }) => k.id === made.id);
    const { key: _key, ...shown } = made;
    expect(listed).toEqual({ ...shown, lastUsedAt: t.clock.now().toISOString() });
  });

  it('a revoked key answers 401 at once, even when cached; a second revocation is 404', async () => {
    const made = (await call(team.key, 'POST', '/v1/api-keys', { kind: 'full' })).json();
    expect((await whoami(made.key)).statusCode).toBe(200); // warms this process's cache
    const revoked = await call(team.key, 'DELETE', `/v1/api-keys/${made.id}`);
    expect(revoked.statusCode).toBe(200);
    expect(revoked.json()).toEqual({ id: made.id, deleted: true });
    expect((await whoami(made.key)).statusCode).toBe(401);
    expect((await call(team.key, 'DELETE', `/v1/api-keys/${made.id}`)).statusCode).toBe(404);
    expect((await keysOf(team.key)).some((k) => k.id === made.id)).toBe(false);
  });

  it('a key cannot revoke itself (400); another admin key can', async () => {
    const made = (await call(team.key, 'POST', '/v1/api-keys', { kind: 'full' })).json();
    const self = await call(made.key, 'DELETE', `/v1/api-keys/${made.id}`);
    expect(self.statusCode).toBe(400);
    expect(self.json().error).toEqual({ code: 'BAD_REQUEST', message: expect.stringMatching(/^keyId: /) });
    expect((await whoami(made.key)).statusCode).toBe(200);
    expect((await call(team.key, 'DELETE', `/v1/api-keys/${made.id}`)).statusCode).toBe(200);
  });

  it('a key limited to a domain of the team', async () => {
    const domain = await call(team.key, 'POST', '/v1/domains', {
      name: 'keys-public.example.com',
      region: 'us-east-1',
    });
    const domainId: number = domain.json().id;
    const made = await call(team.key, 'POST', '/v1/api-keys', { kind: 'sending', domainId });
    expect(made.json()).toMatchObject({ domainId });
    expect((await whoami(made.json().key)).json()).toMatchObject({ domainId });
  });
});

describe('access', () => {
  const endpoints: [Method, string][] = [
    ['GET', '/v1/api-keys'],
    ['POST', '/v1/api-keys'],
    ['DELETE', '/v1/api-keys/key_unknown'],
  ];
  const attempt = (key: string, [method, url]: [Method, string]) =>
    call(key, method, url, method === 'POST' ? { kind: 'readonly' } : undefined);
  const expectRefused = (response: LightMyRequestResponse, code: string) => {
    expect(response.statusCode, response.body).toBe(403);
    expect(response.json().error.code).toBe(code);
  };

  for (const kind of ['sending', 'sandbox', 'live_ai'] as KeyKind[]) {
    it(`a ${kind} key: SCOPE_DENIED on every endpoint`, async () => {
      const { key } = await team.makeKey(kind);
      for (const endpoint of endpoints) expectRefused(await attempt(key, endpoint), 'SCOPE_DENIED');
    });
  }

  it("a read only key made by an admin lists, and may not change (SCOPE_DENIED); a member's is FORBIDDEN", async () => {
    const admin = await team.addMember('ADMIN');
    const { key } = await team.makeKey('readonly', { memberId: admin });
    expect((await attempt(key, endpoints[0]!)).statusCode).toBe(200);
    expectRefused(await attempt(key, endpoints[1]!), 'SCOPE_DENIED');
    expectRefused(await attempt(key, endpoints[2]!), 'SCOPE_DENIED');
    const member = await team.addMember('MEMBER');
    expectRefused(
      await attempt((await team.makeKey('readonly', { memberId: member })).key, endpoints[0]!),
      'FORBIDDEN',
    );
  });

  it('a full access key made by a member (not an admin), or by nobody recorded: FORBIDDEN, nothing made', async () => {
    const member = await team.addMember('MEMBER');
    const before = await keyCount(team.id);
    for (const memberId of [member, null]) {
      const { key } = await team.makeKey('full', { memberId });
      for (const endpoint of endpoints) expectRefused(await attempt(key, endpoint), 'FORBIDDEN');
    }
    expect(await keyCount(team.id)).toBe(before + 2);
  });

  it("an admin's full key manages keys; limited to a domain it is DOMAIN_PINNED; no key is 401", async () => {
    const admin = await team.addMember('ADMIN');
    const { key } = await team.makeKey('full', { memberId: admin });
    const made = await call(key, 'POST', '/v1/api-keys', { kind: 'readonly' });
    expect(made.json().createdBy).toBe(admin);
    expect((await call(key, 'DELETE', `/v1/api-keys/${made.json().id}`)).statusCode).toBe(200);
    const domain = await call(team.key, 'POST', '/v1/domains', {
      name: 'keys-pinned.example.com',
      region: 'us-east-1',
    });
    const pinned = await team.makeKey('full', { domainId: domain.json().id });
    for (const endpoint of endpoints) expectRefused(await attempt(pinned.key, endpoint), 'DOMAIN_PINNED');
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/api-keys' })).statusCode).toBe(401);
  });
});

describe('other teams, bad input', () => {
  it("another team's key answers 404 and keeps working; its domain is 404 and nothing is made", async () => {
    const other = await createTeam(t.app);
    const theirs = await other.makeKey('full');
    expect((await call(team.key, 'DELETE', `/v1/api-keys/${theirs.id}`)).statusCode).toBe(404);
    expect((await whoami(theirs.key)).statusCode).toBe(200);
    expect((await keysOf(team.key)).some((k) => k.id === theirs.id)).toBe(false);
    const domain = await call(other.key, 'POST', '/v1/domains', {
      name: 'keys-theirs.example.com',
      region: 'us-east-1',
    });
    const before = await keyCount(team.id);
    const refused = await call(team.key, 'POST', '/v1/api-keys', { kind: 'full', domainId: domain.json().id });
    expect(refused.statusCode).toBe(404);
    expect(refused.json().error.message).toMatch(/^domainId: /);
    expect(await keyCount(team.id)).toBe(before);
  });

  it('400 naming the field and the limit; nothing made', async () => {
    const before = await keyCount(team.id);
    const cases: [object, RegExp][] = [
      [{ kind: 'superuser' }, /kind/],
      [{}, /kind/],
      [{ kind: 'full', name: 'x'.repeat(201) }, /name: .*200/],
      [{ kind: 'full', name: '   ' }, /name/],
      [{ kind: 'full', domainId: 0 }, /domainId/],
      [{ kind: 'full', domainId: 2 ** 31 }, /domainId/],
    ];
    for (const [body, message] of cases) {
      const response = await call(team.key, 'POST', '/v1/api-keys', body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json().error.message).toMatch(message);
    }
    expect(await keyCount(team.id)).toBe(before);
    expect((await call(team.key, 'POST', '/v1/api-keys', { kind: 'full', name: 'x'.repeat(200) })).statusCode).toBe(
      201,
    );
    expect((await call(team.key, 'DELETE', `/v1/api-keys/${'k'.repeat(65)}`)).statusCode).toBe(400);
  });
});

describe('lastUsedAt', () => {
  it('is written on a lookup the cache did not hold, at most once a minute per key', async () => {
    const made = (await call(team.key, 'POST', '/v1/api-keys', { kind: 'readonly' })).json();
    const lastUsed = async () => (await keysOf(team.key)).find((k) => k.id === made.id)!;
    const first = t.clock.now().toISOString();
    await whoami(made.key);
    expect((await lastUsed()).lastUsedAt).toBe(first);
    t.clock.advance(30_000);
    t.deps.principals.clear(); // a cold lookup again, 30 s later: not written
    await whoami(made.key);
    expect((await lastUsed()).lastUsedAt).toBe(first);
    t.clock.advance(60_000); // the entry cached 30 s in has expired: looked up again, and written
    await whoami(made.key);
    expect((await lastUsed()).lastUsedAt).toBe(t.clock.now().toISOString());
  });
});

describe('notices and the audit log', () => {
  it('each creation and revocation emails the owners and admins and enters the audit log', async () => {
    const noticed = await createTeam(t.app);
    const admin = await noticed.addMember('ADMIN');
    await noticed.addMember('MEMBER');
    const { key } = await noticed.makeKey('full', { memberId: admin });
    const made = (await call(key, 'POST', '/v1/api-keys', { kind: 'sandbox', name: 'CI' })).json();
    t.clock.advance(1000);
    expect((await call(key, 'DELETE', `/v1/api-keys/${made.id}`)).statusCode).toBe(200);

    const notices = await t.deps.db
      .selectFrom('team_notices')
      .selectAll()
      .where('team_id', '=', noticed.id)
      .orderBy('id')
      .execute();
    expect(notices.map((n) => n.kind)).toEqual(['api_key.created', 'api_key.revoked']);
    const members = await t.deps.db.selectFrom('members').selectAll().where('team_id', '=', noticed.id).execute();
    const adminEmail = members.find((m) => m.id === admin)!.email;
    const expected = members.filter((m) => m.role !== 'MEMBER').map((m) => m.email);
    for (const notice of notices) {
      expect([...notice.recipients].sort()).toEqual(expected.sort());
      expect(notice.text).toContain(`"CI" (${made.id}), ending ${made.hint}`);
      expect(notice.text).toContain(`made by ${adminEmail}`);
      expect(notice.text).not.toContain(made.key);
    }

    // The notices queue mails them from the instance's notices address (the log transport's outbox).
    const runner = new QueueRunner({
      database: t.deps.database,
      queues: [
        teamNoticesQueue({
          transport: t.deps.mailTransport,
          mailDomain: t.deps.config.mailDomain,
          sign: heraldMailSigner(t.deps),
        }),
      ],
      clock: t.clock,
      pollMs: 50,
    });
    await runner.start();
    try {
      runner.wake();
      await runner.idle();
    } finally {
      await runner.stop();
    }
    const sent = await t.deps.db
      .selectFrom('outbox')
      .select(['envelope_to', 'raw'])
      .where('envelope_from', '=', `notices@${t.deps.config.mailDomain}`)
      .execute();
    // The notices queue sends them concurrently: in either order.
    const ours = sent.filter((row) => (row.envelope_to as string[]).includes(adminEmail));
    const subjects = ours.map((row) =>
      Buffer.from(row.raw).toString().includes('A new API key was created') ? 'created' : 'revoked',
    );
    expect(subjects.sort()).toEqual(['created', 'revoked']);
    expect(ours.map((row) => Buffer.from(row.raw).toString()).join('\n')).toContain(
      'An API key of your team was revoked',
    );

    const audit = (await call(key, 'GET', '/v1/audit-log')).json().data;
    expect(audit.slice(0, 2)).toEqual([
      expect.objectContaining({
        action: 'api_key.revoked',
        target: made.id,
        method: 'DELETE',
        path: `/v1/api-keys/${made.id}`,
        status: 200,
        key: expect.objectContaining({ id: expect.any(String), kind: 'full', memberId: admin }),
      }),
      expect.objectContaining({ action: 'api_key.created', target: made.id, method: 'POST', status: 201 }),
    ]);
  });
});
