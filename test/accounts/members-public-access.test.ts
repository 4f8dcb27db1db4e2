// The team's own member endpoints (/v1/team/members): another team's member as missing, the access
// rule of each endpoint for each key kind and maker, bad input naming the field and changing nothing,
// every change in the audit log in its own transaction, and the dashboard session's writes.
import { describe, expect, it } from 'vitest';
import type { KeyKind } from '../support/factory.ts';
import { signedIn } from '../sessions/support.ts';
import { address, expectError, keyOf, useMembersApp, type Method } from './member-support.ts';

const app = useMembersApp();
const { call, members, roleOf, emailOf, audited, newTeam } = app;

describe('other teams, access, bad input', () => {
  it("another team's member answers 404 and is left alone", async () => {
    const team = await newTeam();
    const other = await newTeam();
    const theirs = await other.addMember('MEMBER');
    expectError(await call(team.key, 'PATCH', `/v1/team/members/${theirs}`, { role: 'ADMIN' }), 404, 'NOT_FOUND');
    expectError(await call(team.key, 'DELETE', `/v1/team/members/${theirs}`), 404, 'NOT_FOUND');
    expect(await roleOf(other.id, theirs)).toBe('MEMBER');
    const listed = (await call(team.key, 'GET', '/v1/team/members')).json().data as { id: number }[];
    expect(listed.some((m) => m.id === theirs)).toBe(false);
  });

  const endpoints: [Method, string, object?][] = [
    ['GET', '/v1/team/members'],
    ['POST', '/v1/team/members', { email: 'nobody@example.test', role: 'MEMBER' }],
    ['PATCH', '/v1/team/members/1', { role: 'MEMBER' }],
    ['DELETE', '/v1/team/members/1'],
  ];

  it('sending, sandbox and live AI keys: SCOPE_DENIED; a read only admin key lists only', async () => {
    const team = await newTeam();
    for (const kind of ['sending', 'sandbox', 'live_ai'] as KeyKind[]) {
      const { key } = await team.makeKey(kind);
      for (const [method, url, body] of endpoints) expectError(await call(key, method, url, body), 403, 'SCOPE_DENIED');
    }
    const { key } = await keyOf(team, 'ADMIN', 'readonly');
    expect((await call(key, 'GET', '/v1/team/members')).statusCode).toBe(200);
    for (const [method, url, body] of endpoints.slice(1))
      expectError(await call(key, method, url, body), 403, 'SCOPE_DENIED');
  });

  it("a member's key, or one made by nobody recorded: FORBIDDEN; domain-limited: DOMAIN_PINNED; no key: 401", async () => {
    const team = await newTeam();
    const before = await members(team.id);
    const { key } = await keyOf(team, 'MEMBER');
    const nobody = await team.makeKey('full', { memberId: null });
    for (const k of [key, nobody.key])
      for (const [method, url, body] of endpoints) expectError(await call(k, method, url, body), 403, 'FORBIDDEN');
    const domain = await call(team.key, 'POST', '/v1/domains', {
      name: `members-${team.id}.example.com`,
      region: 'us-east-1',
    });
    const pinned = await team.makeKey('full', { domainId: domain.json().id });
    for (const [method, url, body] of endpoints)
      expectError(await call(pinned.key, method, url, body), 403, 'DOMAIN_PINNED');
    expect((await app.t.app.inject({ method: 'GET', url: '/api/v1/team/members' })).statusCode).toBe(401);
    expect((await members(team.id)).length).toBe(before.length + 1);
  });

  it('400 naming the field and the limit; nothing changes', async () => {
    const team = await newTeam();
    const before = await members(team.id);
    const cases: [object, RegExp][] = [
      [{ role: 'MEMBER' }, /email/],
      [{ email: 'not-an-address', role: 'MEMBER' }, /email: must be an email address/],
      [{ email: `${'a'.repeat(309)}@example.test`, role: 'MEMBER' }, /email: .*320/],
      [{ email: address(team), name: 'x'.repeat(201), role: 'MEMBER' }, /name: .*200/],
      [{ email: address(team), name: '  ', role: 'MEMBER' }, /name/],
      [{ email: address(team), role: 'SUPERUSER' }, /role/],
      [{ email: address(team) }, /role/],
    ];
    for (const [body, message] of cases)
      expectError(await call(team.key, 'POST', '/v1/team/members', body), 400, 'BAD_REQUEST', message);
    expectError(await call(team.key, 'PATCH', `/v1/team/members/${team.ownerId}`, {}), 400, 'BAD_REQUEST', /role/);
    for (const id of ['0', String(2 ** 31), 'abc'])
      expectError(await call(team.key, 'DELETE', `/v1/team/members/${id}`), 400, 'BAD_REQUEST', /memberId/);
    expect(await members(team.id)).toEqual(before);
    const edge = { email: address(team), name: 'x'.repeat(200), role: 'MEMBER' };
    expect((await call(team.key, 'POST', '/v1/team/members', edge)).statusCode).toBe(201);
  });
});

describe('the audit log and the dashboard session', () => {
  it('each change enters the audit log in its transaction, naming the member and the key', async () => {
    const team = await newTeam();
    const { memberId: admin, key } = await keyOf(team, 'ADMIN');
    const email = address(team);
    const id: number = (await call(key, 'POST', '/v1/team/members', { email, role: 'MEMBER' })).json().id;
    app.t.clock.advance(1000);
    await call(key, 'PATCH', `/v1/team/members/${id}`, { role: 'ADMIN' });
    app.t.clock.advance(1000);
    await call(key, 'DELETE', `/v1/team/members/${id}`);
    await call(key, 'DELETE', `/v1/team/members/${team.ownerId}`); // refused: no entry
    const path = `/v1/team/members/${id}`;
    expect(await audited(team.id)).toEqual([
      {
        action: 'member.invited',
        target: email,
        method: 'POST',
        path: '/v1/team/members',
        status: 201,
        member_id: admin,
      },
      { action: 'member.role_changed', target: email, method: 'PATCH', path, status: 200, member_id: admin },
      { action: 'member.removed', target: email, method: 'DELETE', path, status: 200, member_id: admin },
    ]);
    const log = (await call(key, 'GET', '/v1/audit-log')).json().data;
    expect(log.slice(0, 3).map((e: { action: string }) => e.action)).toEqual([
      'member.removed',
      'member.role_changed',
      'member.invited',
    ]);
  });

  it("a signed-in admin invites with the session's CSRF token; a member who is not an admin gets 403", async () => {
    const team = await newTeam();
    const admin = await signedIn(app.t, await emailOf(team.id, await team.addMember('ADMIN')));
    const email = address(team);
    const invited = await admin.call('POST', '/v1/team/members', {
      team: team.id,
      payload: { email, role: 'MEMBER' },
    });
    expect(invited.statusCode, invited.body).toBe(201);
    const bare = await admin.bare('POST', '/v1/team/members', { payload: { email: address(team), role: 'MEMBER' } });
    expect(bare.statusCode).toBe(403);
    const member = await signedIn(app.t, email);
    const refused = await member.call('GET', '/v1/team/members', { team: team.id });
    expectError(refused, 403, 'FORBIDDEN', /not a team admin/);
  });
});
