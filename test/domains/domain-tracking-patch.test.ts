// PATCH /v1/domains/{id} (Herald extension): turns openTracking and clickTracking on or off, with the
// access rules, 403/404 flat bodies and tenancy of GET /v1/domains/{id}; bad bodies are 400.
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.ts';
import { bearer, createTeam, type KeyKind, type TestTeam } from '../support/factory.ts';
import { createDomain, getDomainJson } from './support.ts';

let t: TestApp;
let team: TestTeam;
let other: TestTeam;
beforeAll(async () => {
  t = await createTestApp({ config: { mailDomain: 'mail.herald.test' } });
  team = await createTeam(t.app);
  other = await createTeam(t.app);
});
afterAll(() => t.close());

const flat = { error: expect.any(String) };

function patch(app: FastifyInstance, key: string, id: number | string, payload?: unknown) {
  return app.inject({
    method: 'PATCH',
    url: `/api/v1/domains/${id}`,
    headers: bearer(key),
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
}

describe('PATCH /v1/domains/{id}', () => {
  it('changes only the flags given and answers the Domain', async () => {
    const domain = await createDomain(t.app, team.key);
    t.clock.advance(5_000);
    const opened = await patch(t.app, team.key, domain.id, { openTracking: true });
    expect(opened.statusCode, opened.body).toBe(200);
    expect(opened.json()).toMatchObject({
      id: domain.id,
      name: domain.name,
      openTracking: true,
      clickTracking: false,
      updatedAt: t.clock.now().toISOString(),
    });
    expect(opened.json().dnsRecords).toEqual(domain.dnsRecords);

    const clicked = await patch(t.app, team.key, domain.id, { clickTracking: true });
    expect(clicked.json()).toMatchObject({ openTracking: true, clickTracking: true });
    const off = await patch(t.app, team.key, domain.id, { openTracking: false, clickTracking: false });
    expect(off.json()).toMatchObject({ openTracking: false, clickTracking: false });
    expect(await getDomainJson(t.app, team.key, domain.id)).toMatchObject({
      openTracking: false,
      clickTracking: false,
    });

    // An empty body changes nothing and still answers the domain.
    const same = await patch(t.app, team.key, domain.id, {});
    expect(same.statusCode).toBe(200);
    expect(same.json()).toEqual(await getDomainJson(t.app, team.key, domain.id));
  });

  it('refuses bad bodies with 400 naming the field, changing nothing', async () => {
    const domain = await createDomain(t.app, team.key);
    for (const body of [
      { openTracking: 'yes' },
      { clickTracking: 1 },
      { openTracking: null },
      { opentracking: true },
      [true],
    ]) {
      const response = await patch(t.app, team.key, domain.id, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json()).toEqual({ error: { code: expect.any(String), message: expect.any(String) } });
    }
    expect((await patch(t.app, team.key, domain.id, { openTracking: 'yes' })).json().error.message).toMatch(
      /openTracking/,
    );
    expect(await getDomainJson(t.app, team.key, domain.id)).toMatchObject({
      openTracking: false,
      clickTracking: false,
    });
  });

  it("another team's domain, a deleted one and a missing one answer 404 with the flat body", async () => {
    const theirs = await createDomain(t.app, other.key);
    const gone = await createDomain(t.app, team.key);
    expect(
      (await t.app.inject({ method: 'DELETE', url: `/api/v1/domains/${gone.id}`, headers: bearer(team.key) }))
        .statusCode,
    ).toBe(200);
    for (const id of [theirs.id, gone.id, 2_000_000_000]) {
      const response = await patch(t.app, team.key, id, { openTracking: true });
      expect(response.statusCode, `domain ${id}`).toBe(404);
      expect(response.json()).toEqual(flat);
    }
    expect(await getDomainJson(t.app, other.key, theirs.id)).toMatchObject({ openTracking: false });
  });

  it('needs a full access key (403 flat) and, for a domain-limited key, its own domain', async () => {
    const domain = await createDomain(t.app, team.key);
    for (const kind of ['readonly', 'sending', 'sandbox', 'live_ai'] as KeyKind[]) {
      const { key } = await team.makeKey(kind);
      const response = await patch(t.app, key, domain.id, { openTracking: true });
      expect(response.statusCode, kind).toBe(403);
      expect(response.json()).toEqual(flat);
    }
    const sibling = await createDomain(t.app, team.key);
    const { key: limited } = await team.makeKey('full', { domainId: domain.id });
    const refused = await patch(t.app, limited, sibling.id, { clickTracking: true });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual(flat);
    expect((await patch(t.app, limited, domain.id, { clickTracking: true })).json()).toMatchObject({
      clickTracking: true,
    });
    expect(await getDomainJson(t.app, team.key, sibling.id)).toMatchObject({
      clickTracking: false,
      openTracking: false,
    });
  });

  it('401 without a key', async () => {
    const response = await t.app.inject({ method: 'PATCH', url: '/api/v1/domains/1', payload: { openTracking: true } });
    expect(response.statusCode).toBe(401);
  });
});
