// Every row of the contract's Authentication table, through HTTP, with probe routes that declare
// each access level exactly as area routes do.
import type { FastifyPluginAsync } from 'fastify';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { buildDeps } from '../../src/build-deps.ts';
import { accessPolicy, type AccessLevel } from '../../src/platform/auth/policy.ts';
import { createTestApp, discardTestDataDir, testConfig, type TestApp } from '../support/app.ts';
import { getTestDb } from '../support/db.ts';
import { bearer, createTeam, type KeyKind, type TestTeam } from '../support/factory.ts';

/** The levels that ask for a key ('public' asks for none). */
type KeyLevel = Exclude<AccessLevel, 'public'>;
const levels = (Object.keys(accessPolicy) as AccessLevel[]).filter((level): level is KeyLevel => level !== 'public');
const probes: FastifyPluginAsync = async (api) => {
  for (const level of levels) api.get(`/v1/_probe/${level}`, { config: { access: level } }, async () => ({ ok: true }));
  api.get('/v1/_probe/public', { config: { access: 'public' } }, async () => ({ ok: true }));
};

let t: TestApp;
let team: TestTeam;
/** A real domain of the team: a key can only be limited to one of its own team's domains. */
let domainId: number;
beforeAll(async () => {
  t = await createTestApp({ extraRoutes: probes });
  team = await createTeam(t.app);
  const domain = await t.app.inject({
    method: 'POST',
    url: '/api/v1/domains',
    headers: bearer(team.key),
    payload: { name: 'access-policy.example.com', region: 'us-east-1' },
  });
  domainId = domain.json().id;
});
afterAll(() => t.close());

const call = (level: KeyLevel, key: string) =>
  t.app.inject({ method: 'GET', url: `/api/v1/_probe/${level}`, headers: bearer(key) });

// Expected outcome per level and key kind, for an unrestricted key made by the owner.
const expected: Record<KeyLevel, Record<KeyKind, 200 | 'SCOPE_DENIED'>> = {
  send: { full: 200, sending: 200, readonly: 'SCOPE_DENIED', sandbox: 'SCOPE_DENIED', live_ai: 'SCOPE_DENIED' },
  full: {
    full: 200,
    sending: 'SCOPE_DENIED',
    readonly: 'SCOPE_DENIED',
    sandbox: 'SCOPE_DENIED',
    live_ai: 'SCOPE_DENIED',
  },
  webhookList: { full: 200, readonly: 200, sending: 'SCOPE_DENIED', sandbox: 'SCOPE_DENIED', live_ai: 'SCOPE_DENIED' },
  webhookRead: {
    full: 200,
    readonly: 'SCOPE_DENIED',
    sending: 'SCOPE_DENIED',
    sandbox: 'SCOPE_DENIED',
    live_ai: 'SCOPE_DENIED',
  },
  webhookManage: {
    full: 200,
    readonly: 'SCOPE_DENIED',
    sending: 'SCOPE_DENIED',
    sandbox: 'SCOPE_DENIED',
    live_ai: 'SCOPE_DENIED',
  },
  webhookRetry: {
    full: 200,
    readonly: 'SCOPE_DENIED',
    sending: 'SCOPE_DENIED',
    sandbox: 'SCOPE_DENIED',
    live_ai: 'SCOPE_DENIED',
  },
  billingRead: { full: 200, readonly: 200, sending: 'SCOPE_DENIED', sandbox: 'SCOPE_DENIED', live_ai: 'SCOPE_DENIED' },
  billingUsage: { full: 200, readonly: 200, live_ai: 200, sending: 'SCOPE_DENIED', sandbox: 'SCOPE_DENIED' },
  anyKey: { full: 200, readonly: 200, live_ai: 200, sending: 200, sandbox: 200 },
  auditLog: {
    full: 200,
    readonly: 'SCOPE_DENIED',
    sending: 'SCOPE_DENIED',
    sandbox: 'SCOPE_DENIED',
    live_ai: 'SCOPE_DENIED',
  },
  campaignRead: {
    full: 200,
    readonly: 200,
    sending: 'SCOPE_DENIED',
    sandbox: 'SCOPE_DENIED',
    live_ai: 'SCOPE_DENIED',
  },
  teamAdminRead: {
    full: 200,
    readonly: 200,
    sending: 'SCOPE_DENIED',
    sandbox: 'SCOPE_DENIED',
    live_ai: 'SCOPE_DENIED',
  },
  teamAdminManage: {
    full: 200,
    readonly: 'SCOPE_DENIED',
    sending: 'SCOPE_DENIED',
    sandbox: 'SCOPE_DENIED',
    live_ai: 'SCOPE_DENIED',
  },
  // The dashboard's own session endpoints take a session, never a key (test/sessions/).
  session: allDenied(),
  sessionAdmin: allDenied(),
};

function allDenied(): Record<KeyKind, 'SCOPE_DENIED'> {
  return {
    full: 'SCOPE_DENIED',
    readonly: 'SCOPE_DENIED',
    sending: 'SCOPE_DENIED',
    sandbox: 'SCOPE_DENIED',
    live_ai: 'SCOPE_DENIED',
  };
}

describe('key kinds per operation group', () => {
  const kinds: KeyKind[] = ['full', 'readonly', 'sending', 'sandbox', 'live_ai'];
  for (const level of levels) {
    for (const kind of kinds) {
      it(`${level} with a ${kind} key → ${expected[level][kind]}`, async () => {
        const { key } = await team.makeKey(kind);
        const response = await call(level, key);
        if (expected[level][kind] === 200) {
          expect(response.statusCode).toBe(200);
        } else {
          expect(response.statusCode).toBe(403);
          expect(response.json().error.code).toBe('SCOPE_DENIED');
        }
      });
    }
  }
});

describe('keys limited to one domain', () => {
  const pinnedDenied: KeyLevel[] = [
    'webhookList',
    'webhookRead',
    'webhookManage',
    'webhookRetry',
    'billingRead',
    'auditLog',
    'teamAdminRead',
    'teamAdminManage',
  ];
  for (const level of levels) {
    const denied = pinnedDenied.includes(level);
    it(`${level} with a domain-limited key → ${denied ? 'DOMAIN_PINNED' : 200}`, async () => {
      const kinds = accessPolicy[level].kinds;
      for (const kind of kinds) {
        const { key } = await team.makeKey(kind, { domainId });
        const response = await call(level, key);
        if (denied) {
          expect(response.statusCode).toBe(403);
          expect(response.json().error.code).toBe('DOMAIN_PINNED');
        } else {
          expect(response.statusCode).toBe(200);
        }
      }
    });
  }
});

describe('maker must be a team admin today', () => {
  const adminOnly: KeyLevel[] = ['webhookManage', 'billingRead', 'auditLog', 'teamAdminRead', 'teamAdminManage'];
  // The session levels admit no key at all (above); their member rule is test/sessions/'s.
  for (const level of levels.filter((l) => accessPolicy[l].kinds.length > 0)) {
    const needsAdmin = adminOnly.includes(level);
    const kind: KeyKind = accessPolicy[level].kinds[0]!;
    it(`${level}: key by a MEMBER → ${needsAdmin ? 'FORBIDDEN' : 200}; by an ADMIN → 200`, async () => {
      const member = await team.addMember('MEMBER');
      const admin = await team.addMember('ADMIN');
      const byMember = await call(level, (await team.makeKey(kind, { memberId: member })).key);
      const byAdmin = await call(level, (await team.makeKey(kind, { memberId: admin })).key);
      expect(byAdmin.statusCode).toBe(200);
      if (needsAdmin) {
        expect(byMember.statusCode).toBe(403);
        expect(byMember.json().error.code).toBe('FORBIDDEN');
      } else {
        expect(byMember.statusCode).toBe(200);
      }
    });
    if (needsAdmin) {
      it(`${level}: key whose maker was never recorded → FORBIDDEN`, async () => {
        const response = await call(level, (await team.makeKey(kind, { memberId: null })).key);
        expect(response.statusCode).toBe(403);
        expect(response.json().error.code).toBe('FORBIDDEN');
      });
    }
  }

  it('a member demoted after making the key loses access at once, and regains it when promoted', async () => {
    const admin = await team.addMember('ADMIN');
    const { key } = await team.makeKey('full', { memberId: admin });
    expect((await call('webhookManage', key)).statusCode).toBe(200); // warms the cache
    await team.setRole(admin, 'MEMBER');
    const demoted = await call('webhookManage', key);
    expect(demoted.statusCode).toBe(403);
    expect(demoted.json().error.code).toBe('FORBIDDEN');
    expect((await call('full', key)).statusCode).toBe(200); // plain FULL endpoints do not need an admin maker
    await team.setRole(admin, 'OWNER');
    expect((await call('webhookManage', key)).statusCode).toBe(200);
  });
});

describe('401 UNAUTHORIZED', () => {
  const cases: Array<[string, Record<string, string>]> = [
    ['missing header', {}],
    ['empty header', { authorization: '' }],
    ['not a bearer scheme', { authorization: 'Basic dXNlcjpwYXNz' }],
    ['malformed key', { authorization: 'Bearer not-a-key' }],
    ['unknown well-formed key', { authorization: `Bearer hk_${'A'.repeat(43)}` }],
  ];
  for (const [name, headers] of cases) {
    it(name, async () => {
      const response = await t.app.inject({ method: 'GET', url: '/api/v1/whoami', headers });
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({ error: { code: 'UNAUTHORIZED', message: expect.any(String) } });
    });
  }

  it('a deleted key stops working at once, even when cached', async () => {
    const made = await team.makeKey('full');
    expect((await call('full', made.key)).statusCode).toBe(200);
    const deleted = await t.app.inject({
      method: 'DELETE',
      url: `/admin/v1/teams/${team.id}/api-keys/${made.id}`,
      headers: { authorization: `Bearer ${t.deps.config.adminToken}` },
    });
    expect(deleted.json()).toEqual({ id: made.id, deleted: true });
    expect((await call('full', made.key)).statusCode).toBe(401);
  });

  it("a key deleted through another process is dropped from this one's cache (NOTIFY)", async () => {
    const other = await createTestApp();
    try {
      const made = await team.makeKey('full');
      expect((await call('full', made.key)).statusCode).toBe(200);
      await other.app.inject({
        method: 'DELETE',
        url: `/admin/v1/teams/${team.id}/api-keys/${made.id}`,
        headers: { authorization: `Bearer ${other.deps.config.adminToken}` },
      });
      await expect.poll(async () => (await call('full', made.key)).statusCode, { timeout: 5000 }).toBe(401);
    } finally {
      await other.close();
    }
  });
});

describe('closed by default', () => {
  it('a public route answers without a key, and with one', async () => {
    const bare = await t.app.inject({ method: 'GET', url: '/api/v1/_probe/public' });
    expect(bare.statusCode).toBe(200);
    expect(bare.json()).toEqual({ ok: true });
    const keyed = await t.app.inject({ method: 'GET', url: '/api/v1/_probe/public', headers: bearer(team.key) });
    expect(keyed.statusCode).toBe(200);
  });

  it('a route under the API prefix that declares no access stops start-up, naming its method and path', async () => {
    const deps = await buildDeps(testConfig(), { database: await getTestDb(), logger: pino({ level: 'silent' }) });
    try {
      const forgotten: FastifyPluginAsync = async (api) => {
        api.post('/v1/_probe/forgotten', async () => ({ ok: true }));
      };
      await expect(buildApp(deps, { extraRoutes: forgotten })).rejects.toThrow(
        'Route POST /api/v1/_probe/forgotten declares no access',
      );
    } finally {
      await deps.close();
      discardTestDataDir(deps.config);
    }
  });
});
