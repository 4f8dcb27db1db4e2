// The admin API of operator.md: teams, members, keys; token checks; bad input changes nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TEST_ADMIN_TOKEN, type TestApp } from '../support/app.ts';
import { bearer } from '../support/factory.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const admin = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object, token = TEST_ADMIN_TOKEN) =>
  t.app.inject({
    method,
    url: `/admin/v1${url}`,
    headers: { authorization: `Bearer ${token}` },
    ...(payload ? { payload } : {}),
  });

describe('admin API', () => {
  it('refuses a missing or wrong token with 401', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/admin/v1/teams/1' })).statusCode).toBe(401);
    const wrong = await admin('GET', '/teams/1', undefined, 'not-the-token');
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().error.code).toBe('UNAUTHORIZED');
  });

  it('is off when no admin token is configured', async () => {
    const off = await createTestApp({ config: { adminToken: null } });
    try {
      const response = await off.app.inject({
        method: 'GET',
        url: '/admin/v1/teams/1',
        headers: { authorization: 'Bearer anything-at-all' },
      });
      expect(response.statusCode).toBe(404);
    } finally {
      await off.close();
    }
  });

  it('creates, reads and changes a team with the documented defaults', async () => {
    const created = await admin('POST', '/teams', { name: 'Acme' });
    expect(created.statusCode).toBe(201);
    const team = created.json();
    expect(team).toMatchObject({ name: 'Acme', plan: 'free', currency: 'USD', smsEnabled: false, apiRateLimit: 10 });
    expect(typeof team.id).toBe('number');
    expect(new Date(team.createdAt).toISOString()).toBe(team.createdAt);
    expect((await admin('GET', `/teams/${team.id}`)).json()).toEqual(team);
    const changed = await admin('PATCH', `/teams/${team.id}`, {
      plan: 'pro',
      currency: 'NGN',
      smsEnabled: true,
      apiRateLimit: 50,
      stripeCustomerId: 'cus_123',
    });
    expect(changed.json()).toMatchObject({
      plan: 'pro',
      currency: 'NGN',
      smsEnabled: true,
      apiRateLimit: 50,
      stripeCustomerId: 'cus_123',
    });
  });

  it('answers 404 for an unknown team and 400 naming the field for bad input, changing nothing', async () => {
    expect((await admin('GET', '/teams/999999')).statusCode).toBe(404);
    const team = (await admin('POST', '/teams', { name: 'Beta' })).json();
    for (const [body, field] of [
      [{ plan: 'enterprise' }, 'plan'],
      [{ currency: 'EUR' }, 'currency'],
      [{ apiRateLimit: 0 }, 'apiRateLimit'],
      [{ smsEnabled: 'yes' }, 'smsEnabled'],
    ] as const) {
      const response = await admin('PATCH', `/teams/${team.id}`, body);
      expect(response.statusCode).toBe(400);
      expect(response.json().error.message).toContain(field);
    }
    expect((await admin('GET', `/teams/${team.id}`)).json()).toEqual(team);
    expect((await admin('POST', '/teams', { name: '' })).statusCode).toBe(400);
    expect((await admin('POST', '/teams', {})).json().error.message).toContain('name');
  });

  it('adds members, refuses duplicates, and changes roles', async () => {
    const team = (await admin('POST', '/teams', { name: 'Gamma' })).json();
    const member = await admin('POST', `/teams/${team.id}/members`, {
      email: 'Ada@Example.com',
      role: 'ADMIN',
      name: 'Ada',
    });
    expect(member.statusCode).toBe(201);
    expect(member.json()).toEqual({ id: expect.any(Number), email: 'ada@example.com', name: 'Ada', role: 'ADMIN' });
    expect(
      (await admin('POST', `/teams/${team.id}/members`, { email: 'ada@example.com', role: 'MEMBER' })).statusCode,
    ).toBe(409);
    expect((await admin('POST', `/teams/${team.id}/members`, { email: 'x@y.z', role: 'KING' })).statusCode).toBe(400);
    const changed = await admin('PATCH', `/teams/${team.id}/members/${member.json().id}`, { role: 'MEMBER' });
    expect(changed.json().role).toBe('MEMBER');
    expect((await admin('PATCH', `/teams/${team.id}/members/999999`, { role: 'MEMBER' })).statusCode).toBe(404);
    expect((await admin('GET', `/teams/${team.id}/members`)).json()).toHaveLength(1);
  });

  it('makes keys of every kind, shown once, and deletes them', async () => {
    const team = (await admin('POST', '/teams', { name: 'Delta' })).json();
    const owner = (await admin('POST', `/teams/${team.id}/members`, { email: 'o@d.test', role: 'OWNER' })).json();
    for (const kind of ['full', 'readonly', 'sending', 'sandbox', 'live_ai']) {
      const created = await admin('POST', `/teams/${team.id}/api-keys`, {
        kind,
        memberId: owner.id,
        name: `${kind} key`,
      });
      expect(created.statusCode).toBe(201);
      expect(created.json()).toMatchObject({
        kind,
        key: expect.stringMatching(/^hk_[A-Za-z0-9_-]{43}$/),
        memberId: owner.id,
        domainId: null,
      });
    }
    const listed = (await admin('GET', `/teams/${team.id}/api-keys`)).json();
    expect(listed).toHaveLength(5);
    expect(JSON.stringify(listed)).not.toMatch(/hk_[A-Za-z0-9_-]{43}/); // never the key again
    const stored = await t.deps.db
      .selectFrom('api_keys')
      .select(['key_hash', 'key_hint'])
      .where('team_id', '=', team.id)
      .execute();
    expect(stored.every((row) => row.key_hash.length === 32)).toBe(true);

    const made = (await admin('POST', `/teams/${team.id}/api-keys`, { kind: 'full' })).json();
    expect(made.memberId).toBeNull();
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/whoami', headers: bearer(made.key) })).statusCode).toBe(
      200,
    );
    expect((await admin('DELETE', `/teams/${team.id}/api-keys/${made.id}`)).json()).toEqual({
      id: made.id,
      deleted: true,
    });
    expect((await admin('DELETE', `/teams/${team.id}/api-keys/${made.id}`)).statusCode).toBe(404);
  });

  it('refuses a key for a member of another team, and unknown kinds', async () => {
    const a = (await admin('POST', '/teams', { name: 'A' })).json();
    const b = (await admin('POST', '/teams', { name: 'B' })).json();
    const bMember = (await admin('POST', `/teams/${b.id}/members`, { email: 'b@b.test', role: 'OWNER' })).json();
    expect((await admin('POST', `/teams/${a.id}/api-keys`, { kind: 'full', memberId: bMember.id })).statusCode).toBe(
      404,
    );
    expect((await admin('POST', `/teams/${a.id}/api-keys`, { kind: 'superuser' })).statusCode).toBe(400);
    expect((await admin('GET', `/teams/${a.id}/api-keys`)).json()).toHaveLength(0);
  });

  it("another team's key id cannot be deleted through this team", async () => {
    const a = (await admin('POST', '/teams', { name: 'A2' })).json();
    const b = (await admin('POST', '/teams', { name: 'B2' })).json();
    const bKey = (await admin('POST', `/teams/${b.id}/api-keys`, { kind: 'full' })).json();
    expect((await admin('DELETE', `/teams/${a.id}/api-keys/${bKey.id}`)).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/whoami', headers: bearer(bKey.key) })).statusCode).toBe(
      200,
    );
  });
});
