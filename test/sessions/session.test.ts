// The session (issue 45): GET /v1/session's shape and team choice; with the cookie every /v1 endpoint
// answers as for a full access key made by the member in the chosen team (writes need X-CSRF-Token and
// our Origin); tenants kept apart; a key and a cookie together judged by the key. Sign-out, the
// session list, revocations and idle expiry are in session-lifetime.test.ts.
import { beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/app.ts';
import { adminRequest, bearer, createTeam, type TestTeam } from '../support/factory.ts';
import { newMember, sessionTestBed } from './session-support.ts';
import { setCookieOf, signedIn } from './support.ts';

const bed = sessionTestBed();
let t: TestApp, teamA: TestTeam, teamB: TestTeam;
beforeAll(() => {
  ({ t, teamA, teamB } = bed);
});

const teamName = async (team: TestTeam) => (await adminRequest(t.app, 'GET', `/teams/${team.id}`)).name as string;

describe('GET /v1/session', () => {
  it('answers the member, their teams, the chosen team, the CSRF token and the instance', async () => {
    const owner = await newMember(t, teamA, 'OWNER');
    const browser = await signedIn(t, owner.email);
    const response = await browser.call('GET', '/v1/session');
    expect(response.statusCode, response.body).toBe(200);
    const team = { id: teamA.id, name: await teamName(teamA), role: 'OWNER', plan: 'free' };
    expect(response.json()).toEqual({
      member: { id: owner.id, email: owner.email },
      teams: [team],
      team,
      csrfToken: browser.csrfToken,
      instance: {
        mailDomain: t.deps.config.mailDomain,
        mailTransport: 'log',
        version: expect.stringMatching(/^\d+\.\d+\.\d+/),
        publicUrl: t.deps.config.publicUrl,
        apiPrefix: '/api',
      },
    });
    // The cookie is set again (its 14 days start over) and nothing caches the answer.
    expect(setCookieOf(response).value).toBe(browser.cookie.split('=')[1]);
    expect(response.headers['cache-control']).toBe('no-store');
  });

  it('without a cookie: 401; with only an API key: 403 SCOPE_DENIED', async () => {
    const bare = await t.app.inject({ method: 'GET', url: '/api/v1/session' });
    expect(bare.statusCode).toBe(401);
    expect(bare.json().error.code).toBe('UNAUTHORIZED');
    const keyed = await t.app.inject({ method: 'GET', url: '/api/v1/session', headers: bearer(teamA.key) });
    expect(keyed.statusCode).toBe(403);
    expect(keyed.json().error.code).toBe('SCOPE_DENIED');
    const unknown = await t.app.inject({
      method: 'GET',
      url: '/api/v1/session',
      headers: { cookie: `herald_session=${'A'.repeat(43)}` },
    });
    expect(unknown.statusCode).toBe(401);
  });

  it('an address in two teams: both listed, the first by default, X-Herald-Team picks; another team: 404', async () => {
    const email = `two-teams-${Date.now()}@example.test`;
    const inA = await adminRequest(t.app, 'POST', `/teams/${teamA.id}/members`, { email, role: 'MEMBER' });
    const inB = await adminRequest(t.app, 'POST', `/teams/${teamB.id}/members`, { email, role: 'ADMIN' });
    const browser = await signedIn(t, email);
    const first = (await browser.call('GET', '/v1/session')).json();
    expect(first.teams.map((team: { id: number; role: string }) => [team.id, team.role])).toEqual([
      [teamA.id, 'MEMBER'],
      [teamB.id, 'ADMIN'],
    ]);
    expect(first.team.id).toBe(teamA.id);
    expect(first.member.id).toBe(inA.id);
    const picked = (await browser.call('GET', '/v1/session', { team: teamB.id })).json();
    expect(picked.team).toMatchObject({ id: teamB.id, role: 'ADMIN' });
    expect(picked.member.id).toBe(inB.id);
    // As a member of A, no billing; as an admin of B, billing.
    expect((await browser.call('GET', '/v1/billing/transactions', { team: teamA.id })).statusCode).toBe(403);
    expect((await browser.call('GET', '/v1/billing/transactions', { team: teamB.id })).statusCode).toBe(200);

    const third = await createTeam(t.app);
    const foreign = await browser.call('GET', '/v1/session', { team: third.id });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().error.code).toBe('NOT_FOUND');
    expect((await browser.call('GET', '/v1/templates', { team: third.id })).statusCode).toBe(404);
    const malformed = await browser.call('GET', '/v1/session', { headers: { 'x-herald-team': 'abc' } });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().error.message).toMatch(/^X-Herald-Team: /);
  });
});

describe('the cookie on the API', () => {
  it('reads work; a write needs X-CSRF-Token and an Origin of HERALD_PUBLIC_URL (403 naming each)', async () => {
    const owner = await newMember(t, teamA, 'OWNER');
    const browser = await signedIn(t, owner.email);
    const read = await browser.bare('GET', '/v1/templates');
    expect(read.statusCode, read.body).toBe(200);
    const whoami = await browser.bare('GET', '/v1/whoami');
    expect(whoami.json()).toMatchObject({ teamId: teamA.id, kind: 'full' });

    const template = { name: 'From the dashboard', subject: 'Hi', html: '<p>Hi</p>' };
    const origin = new URL(t.deps.config.publicUrl).origin;
    const noCsrf = await browser.bare('POST', '/v1/templates', { payload: template, headers: { origin } });
    expect(noCsrf.statusCode).toBe(403);
    expect(noCsrf.json().error).toMatchObject({ code: 'FORBIDDEN', message: expect.stringMatching(/^X-CSRF-Token: /) });
    const wrongCsrf = await browser.bare('POST', '/v1/templates', {
      payload: template,
      headers: { origin, 'x-csrf-token': 'not-the-token' },
    });
    expect(wrongCsrf.statusCode).toBe(403);
    const foreignOrigin = await browser.bare('POST', '/v1/templates', {
      payload: template,
      headers: { origin: 'https://evil.example', 'x-csrf-token': browser.csrfToken },
    });
    expect(foreignOrigin.statusCode).toBe(403);
    expect(foreignOrigin.json().error.message).toMatch(/^Origin: /);
    const noOrigin = await browser.bare('POST', '/v1/templates', {
      payload: template,
      headers: { 'x-csrf-token': browser.csrfToken },
    });
    expect(noOrigin.statusCode).toBe(403);
    expect(noOrigin.json().error.message).toMatch(/^Origin: /);
    // Another session's token does not do either.
    const other = await signedIn(t, owner.email);
    const crossed = await browser.bare('POST', '/v1/templates', {
      payload: template,
      headers: { origin, 'x-csrf-token': other.csrfToken },
    });
    expect(crossed.statusCode).toBe(403);

    const written = await browser.call('POST', '/v1/templates', { payload: template });
    expect(written.statusCode, written.body).toBe(200);
    // Nothing was written by the refused ones.
    const list = (await browser.call('GET', '/v1/templates')).json();
    expect(list.filter((row: { name: string }) => row.name === 'From the dashboard')).toHaveLength(1);
  });

  it('acts as a full access key made by the member: what it makes names them; no billing for a MEMBER', async () => {
    const admin = await newMember(t, teamA, 'ADMIN');
    const member = await newMember(t, teamA, 'MEMBER');
    const adminBrowser = await signedIn(t, admin.email);
    const made = await adminBrowser.call('POST', '/v1/api-keys', {
      payload: { kind: 'sending', name: 'from dashboard' },
    });
    expect(made.statusCode, made.body).toBe(201);
    expect(made.json().createdBy).toBe(admin.id);

    const memberBrowser = await signedIn(t, member.email);
    for (const path of ['/v1/billing/transactions', '/v1/billing/subscription', '/v1/api-keys', '/v1/audit-log']) {
      const response = await memberBrowser.call('GET', path);
      expect(response.statusCode, path).toBe(403);
      expect(response.json().error.code, path).toBe('FORBIDDEN');
    }
    expect((await memberBrowser.call('GET', '/v1/billing/usage')).statusCode).toBe(200);
    expect((await adminBrowser.call('GET', '/v1/billing/transactions')).statusCode).toBe(200);
  });

  it('a role change applies to the next request: an admin demoted loses billing at once', async () => {
    const admin = await newMember(t, teamA, 'ADMIN');
    const browser = await signedIn(t, admin.email);
    expect((await browser.call('GET', '/v1/billing/transactions')).statusCode).toBe(200);
    await teamA.setRole(admin.id, 'MEMBER');
    expect((await browser.call('GET', '/v1/billing/transactions')).statusCode).toBe(403);
    const session = (await browser.call('GET', '/v1/session')).json();
    expect(session.team.role).toBe('MEMBER');
  });

  it("a member of team A never reaches team B's resources: 404 as for a key", async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/v1/templates',
      headers: bearer(teamB.key),
      payload: { name: 'B only', subject: 'B', html: '<p>B</p>' },
    });
    expect(created.statusCode).toBe(200);
    const id = created.json().id as string;
    const member = await newMember(t, teamA, 'OWNER');
    const browser = await signedIn(t, member.email);
    expect((await browser.call('GET', `/v1/templates/${id}`)).statusCode).toBe(404);
    expect((await browser.call('DELETE', `/v1/templates/${id}`)).statusCode).toBe(404);
    expect((await browser.call('GET', '/v1/templates', { team: teamB.id })).statusCode).toBe(404);
    expect(
      (await t.app.inject({ method: 'GET', url: `/api/v1/templates/${id}`, headers: bearer(teamB.key) })).statusCode,
    ).toBe(200);
  });

  it('a key and a cookie together are judged by the key alone', async () => {
    const owner = await newMember(t, teamA, 'OWNER');
    const browser = await signedIn(t, owner.email);
    const readonly = await teamA.makeKey('readonly');
    const withReadonly = await browser.bare('GET', '/v1/templates', { headers: bearer(readonly.key) });
    expect(withReadonly.statusCode).toBe(403);
    expect(withReadonly.json().error.code).toBe('SCOPE_DENIED');
    const withUnknown = await browser.bare('GET', '/v1/templates', { headers: bearer(`hk_${'A'.repeat(43)}`) });
    expect(withUnknown.statusCode).toBe(401);
    // A key of team B with A's cookie: team B's answer.
    const asB = await browser.bare('GET', '/v1/whoami', { headers: bearer(teamB.key) });
    expect(asB.json().teamId).toBe(teamB.id);
    // A key needs no CSRF token, cookie or not.
    const write = await browser.bare('POST', '/v1/templates', {
      headers: bearer(teamA.key),
      payload: { name: 'by key', subject: 'k', html: '<p>k</p>' },
    });
    expect(write.statusCode).toBe(200);
  });
});
