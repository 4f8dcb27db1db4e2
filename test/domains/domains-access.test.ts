// The Domains access rules: full access keys only (flat 403 for the others, flat 401 on verify and
// delete), a domain-limited key reaching its own domain only, and keys limited to a domain (admin API
// and the database's own check).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/app.ts';
import { adminRequest, createTeam, type KeyKind, type TestTeam } from '../support/factory.ts';
import { call, createDomain, flat, getDomainJson, startDomainsApp, uniqueDomain } from './support.ts';

let t: TestApp, team: TestTeam, other: TestTeam;
beforeAll(async () => void ({ t, team, other } = await startDomainsApp()));
afterAll(() => t.close());

describe('access', () => {
  const routes = (id: number) =>
    [
      ['GET', '/v1/domains', undefined],
      ['POST', '/v1/domains', { name: uniqueDomain(), region: 'us-east-1' }],
      ['GET', `/v1/domains/${id}`, undefined],
      ['PUT', `/v1/domains/${id}/verify`, undefined],
      ['DELETE', `/v1/domains/${id}`, undefined],
    ] as const;

  const otherKinds: KeyKind[] = ['readonly', 'sending', 'sandbox', 'live_ai'];
  for (const kind of otherKinds) {
    it(`a ${kind} key is refused with 403 and the flat body on every endpoint`, async () => {
      const domain = await createDomain(t.app, team.key);
      const { key } = await team.makeKey(kind);
      for (const [method, path, body] of routes(domain.id)) {
        const response = await call(t.app, key, method, path, body);
        expect(response.statusCode, `${method} ${path}`).toBe(403);
        expect(response.json()).toEqual(flat);
      }
      expect((await getDomainJson(t.app, team.key, domain.id)).id).toBe(domain.id);
    });
  }

  it("a domain-limited full key lists only its domain and gets 403 (flat) for the team's others", async () => {
    const own = await createTeam(t.app);
    const mine = await createDomain(t.app, own.key);
    const sibling = await createDomain(t.app, own.key);
    const { key } = await own.makeKey('full', { domainId: mine.id });

    const list = await call(t.app, key, 'GET', '/v1/domains');
    expect(list.json().map((d: { id: number }) => d.id)).toEqual([mine.id]);
    expect((await call(t.app, key, 'GET', `/v1/domains/${mine.id}`)).statusCode).toBe(200);
    expect((await call(t.app, key, 'PUT', `/v1/domains/${mine.id}/verify`)).statusCode).toBe(200);

    for (const [method, path, body] of routes(sibling.id).slice(1)) {
      const response = await call(t.app, key, method, path, body);
      expect(response.statusCode, `${method} ${path}`).toBe(403);
      expect(response.json()).toEqual(flat);
    }
    expect((await getDomainJson(t.app, own.key, sibling.id)).id).toBe(sibling.id);

    expect((await call(t.app, key, 'DELETE', `/v1/domains/${mine.id}`)).statusCode).toBe(200);
    expect((await call(t.app, key, 'GET', '/v1/domains')).json()).toEqual([]);
  });

  it('401 without a key: the usual body on reads, flat on verify and delete', async () => {
    const list = await t.app.inject({ method: 'GET', url: '/api/v1/domains' });
    expect(list.statusCode).toBe(401);
    expect(list.json().error.code).toBe('UNAUTHORIZED');
    const verify = await t.app.inject({ method: 'PUT', url: '/api/v1/domains/1/verify' });
    expect(verify.statusCode).toBe(401);
    expect(verify.json()).toEqual(flat);
  });
});

describe('admin: keys limited to a domain', () => {
  it("makes a key for one of the team's domains; 404 for a missing, deleted or another team's domain", async () => {
    const domain = await createDomain(t.app, team.key);
    const made = await adminRequest(t.app, 'POST', `/teams/${team.id}/api-keys`, { kind: 'full', domainId: domain.id });
    expect(made.domainId).toBe(domain.id);

    const gone = await createDomain(t.app, team.key);
    await call(t.app, team.key, 'DELETE', `/v1/domains/${gone.id}`);
    const theirs = await createDomain(t.app, other.key);
    for (const domainId of [gone.id, theirs.id, 2_000_000_000]) {
      const response = await t.app.inject({
        method: 'POST',
        url: `/admin/v1/teams/${team.id}/api-keys`,
        headers: { authorization: `Bearer ${t.deps.config.adminToken}` },
        payload: { kind: 'full', domainId },
      });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ error: { code: 'NOT_FOUND', message: 'domain not found' } });
    }
  });

  it("the database refuses a key naming another team's domain even past the API", async () => {
    const theirs = await createDomain(t.app, other.key);
    await expect(
      t.deps.db
        .insertInto('api_keys')
        .values({
          id: `key_fk_${theirs.id}`,
          team_id: team.id,
          kind: 'full',
          key_hash: Buffer.from(`fk-${theirs.id}`),
          key_hint: 'x',
          member_id: null,
          domain_id: theirs.id,
        })
        .execute(),
    ).rejects.toMatchObject({ code: '23503' });
  });
});
