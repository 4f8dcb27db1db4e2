// The team's own members through the public API (GET, POST /v1/team/members, PATCH and DELETE
// /v1/team/members/{memberId}): an invite adds the member and mails them a sign-in link that works;
// roles (only an owner makes, unmakes or removes an owner; the last owner stays one), the plan's
// member limit, the invite limit, a change taking effect at once. Access, other teams, bad input
// and the audit log: members-public-access.test.ts.
import { describe, expect, it } from 'vitest';
import { INVITES_PER_HOUR } from '../../src/accounts/member-changes.ts';
import { createSession, sendSignInMail, signedIn, signInEmails } from '../sessions/support.ts';
import { address, expectError, keyOf, useMembersApp } from './member-support.ts';

const app = useMembersApp();
const { call, members, roleOf, emailOf, audited, newTeam } = app;

describe('list and invite', () => {
  it('lists the members in the order they were added', async () => {
    const team = await newTeam();
    const admin = await team.addMember('ADMIN');
    const list = await call(team.key, 'GET', '/v1/team/members');
    expect(list.statusCode, list.body).toBe(200);
    const rows = await members(team.id);
    expect(list.json()).toEqual({
      data: rows.map((m) => ({
        id: m.id,
        email: m.email,
        name: m.name,
        role: m.role,
        createdAt: m.created_at.toISOString(),
      })),
    });
    expect(list.json().data.map((m: { id: number }) => m.id)).toEqual([team.ownerId, admin]);
  });

  it('adds the member and mails them a sign-in link that signs them in to the team', async () => {
    const team = await newTeam();
    const email = address(team);
    const invited = await call(team.key, 'POST', '/v1/team/members', {
      email: `  ${email.toUpperCase()} `,
      name: ' Ada Lovelace ',
      role: 'ADMIN',
    });
    expect(invited.statusCode, invited.body).toBe(201);
    expect(invited.json()).toEqual({
      id: expect.any(Number),
      email,
      name: 'Ada Lovelace',
      role: 'ADMIN',
      createdAt: app.t.clock.now().toISOString(),
    });
    expect((await members(team.id)).map((m) => m.email)).toContain(email);

    await sendSignInMail(app.t);
    const [mail, ...more] = await signInEmails(app.t, email);
    expect(more).toHaveLength(0);
    expect(mail!.from).toBe(`sign-in@${app.t.deps.config.mailDomain}`);
    expect(mail!.url).toBe(`${app.t.deps.config.publicUrl}/sign-in/${mail!.token}`);
    const session = await createSession(app.t, { token: mail!.token });
    expect(session.statusCode, session.body).toBe(200);
    expect(session.json().team).toMatchObject({ id: team.id, role: 'ADMIN' });
  });

  it('an address already a member is 409 naming the field (in any case); nothing changes, nothing is mailed', async () => {
    const team = await newTeam();
    const email = address(team);
    expect((await call(team.key, 'POST', '/v1/team/members', { email, role: 'MEMBER' })).statusCode).toBe(201);
    const before = await members(team.id);
    const again = await call(team.key, 'POST', '/v1/team/members', { email: email.toUpperCase(), role: 'ADMIN' });
    expectError(again, 409, 'CONFLICT', new RegExp(`^email: ${email} is already a member`));
    expect(await members(team.id)).toEqual(before);
    await sendSignInMail(app.t);
    expect(await signInEmails(app.t, email)).toHaveLength(1);
  });

  it('only an owner adds an owner: an admin gets 403 naming role', async () => {
    const team = await newTeam();
    const { key } = await keyOf(team, 'ADMIN');
    const before = await members(team.id);
    const refused = await call(key, 'POST', '/v1/team/members', { email: address(team), role: 'OWNER' });
    expectError(refused, 403, 'FORBIDDEN', /^role: only an owner can add an owner/);
    expect(await members(team.id)).toEqual(before);
    const byAdmin = await call(key, 'POST', '/v1/team/members', { email: address(team), role: 'ADMIN' });
    expect(byAdmin.statusCode).toBe(201);
    const byOwner = await call(team.key, 'POST', '/v1/team/members', { email: address(team), role: 'OWNER' });
    expect(byOwner.json()).toMatchObject({ role: 'OWNER' });
  });

  it("the plan's member limit (the usage read's resources.teamMembers): the one past it is 403 naming it", async () => {
    const team = await newTeam({ plan: 'free' });
    const usage = async () => (await call(team.key, 'GET', '/v1/billing/usage')).json().resources.teamMembers;
    const { limit } = await usage();
    expect(limit).toBe(5);
    for (let n = (await usage()).used; n < limit; n++) {
      const added = await call(team.key, 'POST', '/v1/team/members', { email: address(team), role: 'MEMBER' });
      expect(added.statusCode, added.body).toBe(201);
    }
    expect(await usage()).toMatchObject({ used: 5, limit: 5 });
    const email = address(team);
    const refused = await call(team.key, 'POST', '/v1/team/members', { email, role: 'MEMBER' });
    expectError(refused, 403, 'FORBIDDEN', /plan \(free\) allows 5 members/);
    expect(await members(team.id)).toHaveLength(5);
    await sendSignInMail(app.t);
    expect(await signInEmails(app.t, email)).toHaveLength(0);

    const pro = await newTeam({ plan: 'pro' });
    for (let n = 0; n < 6; n++)
      expect(
        (await call(pro.key, 'POST', '/v1/team/members', { email: address(pro), role: 'MEMBER' })).statusCode,
      ).toBe(201);
  });

  it(`at most ${INVITES_PER_HOUR} invites an hour per team (429 with Retry-After), refused ones counted`, async () => {
    const team = await newTeam({ plan: 'pro' });
    const email = address(team);
    for (let n = 0; n < INVITES_PER_HOUR; n++) {
      const answer = await call(team.key, 'POST', '/v1/team/members', { email, role: 'MEMBER' });
      expect(answer.statusCode).toBe(n === 0 ? 201 : 409);
    }
    const limited = await call(team.key, 'POST', '/v1/team/members', { email: address(team), role: 'MEMBER' });
    expectError(limited, 429, 'RATE_LIMITED', /invites an hour/);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(await members(team.id)).toHaveLength(2);
    app.t.clock.advance(3600_000);
    expect(
      (await call(team.key, 'POST', '/v1/team/members', { email: address(team), role: 'MEMBER' })).statusCode,
    ).toBe(201);
  });
});

describe('roles', () => {
  it('an admin moves members between MEMBER and ADMIN; the same role changes nothing', async () => {
    const team = await newTeam();
    const { key } = await keyOf(team, 'ADMIN');
    const member = await team.addMember('MEMBER');
    const promoted = await call(key, 'PATCH', `/v1/team/members/${member}`, { role: 'ADMIN' });
    expect(promoted.statusCode, promoted.body).toBe(200);
    expect(promoted.json()).toMatchObject({ id: member, role: 'ADMIN' });
    expect((await call(key, 'PATCH', `/v1/team/members/${member}`, { role: 'MEMBER' })).json().role).toBe('MEMBER');
    const before = (await audited(team.id)).length;
    expect((await call(key, 'PATCH', `/v1/team/members/${member}`, { role: 'MEMBER' })).statusCode).toBe(200);
    expect(await audited(team.id)).toHaveLength(before);
  });

  it('an admin cannot make or unmake an owner (403 naming role); an owner can', async () => {
    const team = await newTeam();
    const { key } = await keyOf(team, 'ADMIN');
    const member = await team.addMember('MEMBER');
    const other = await team.addMember('OWNER');
    for (const [id, role] of [
      [member, 'OWNER'],
      [other, 'ADMIN'],
      [team.ownerId, 'MEMBER'],
    ] as const) {
      const refused = await call(key, 'PATCH', `/v1/team/members/${id}`, { role });
      expectError(refused, 403, 'FORBIDDEN', /^role: only an owner can make or unmake an owner/);
    }
    expect(await roleOf(team.id, member)).toBe('MEMBER');
    expect(await roleOf(team.id, other)).toBe('OWNER');
    expect((await call(team.key, 'PATCH', `/v1/team/members/${member}`, { role: 'OWNER' })).statusCode).toBe(200);
    expect((await call(team.key, 'PATCH', `/v1/team/members/${other}`, { role: 'ADMIN' })).statusCode).toBe(200);
    expect(await roleOf(team.id, member)).toBe('OWNER');
    expect(await roleOf(team.id, other)).toBe('ADMIN');
  });

  it('the last owner cannot be demoted (400 naming role); with a second owner, they can step down', async () => {
    const team = await newTeam();
    const last = await call(team.key, 'PATCH', `/v1/team/members/${team.ownerId}`, { role: 'ADMIN' });
    expectError(last, 400, 'BAD_REQUEST', /^role: .* is the team's last owner/);
    expect(await roleOf(team.id, team.ownerId)).toBe('OWNER');
    await team.addMember('OWNER');
    const stepped = await call(team.key, 'PATCH', `/v1/team/members/${team.ownerId}`, { role: 'ADMIN' });
    expect(stepped.statusCode, stepped.body).toBe(200);
    // The owner's key is now an admin's: it may no longer touch owners.
    const other = (await members(team.id)).find((m) => m.role === 'OWNER')!;
    expectError(await call(team.key, 'PATCH', `/v1/team/members/${other.id}`, { role: 'ADMIN' }), 403, 'FORBIDDEN');
  });

  it("takes effect at once for the member's keys, even cached", async () => {
    const team = await newTeam();
    const { memberId, key } = await keyOf(team, 'MEMBER');
    expectError(await call(key, 'GET', '/v1/team/members'), 403, 'FORBIDDEN'); // cached now
    await call(team.key, 'PATCH', `/v1/team/members/${memberId}`, { role: 'ADMIN' });
    expect((await call(key, 'GET', '/v1/team/members')).statusCode).toBe(200);
    await call(team.key, 'PATCH', `/v1/team/members/${memberId}`, { role: 'MEMBER' });
    expectError(await call(key, 'GET', '/v1/team/members'), 403, 'FORBIDDEN');
  });
});

describe('remove', () => {
  it('removes a member: their keys keep working without a maker, their session loses the team', async () => {
    const team = await newTeam();
    const { memberId, key } = await keyOf(team, 'ADMIN');
    const email = await emailOf(team.id, memberId);
    const browser = await signedIn(app.t, email);
    expect((await browser.call('GET', '/v1/team/members')).statusCode).toBe(200);
    const removed = await call(team.key, 'DELETE', `/v1/team/members/${memberId}`);
    expect(removed.statusCode, removed.body).toBe(200);
    expect(removed.json()).toEqual({ id: memberId, deleted: true });
    expect((await members(team.id)).some((m) => m.id === memberId)).toBe(false);
    expect((await call(key, 'GET', '/v1/whoami')).statusCode).toBe(200);
    expectError(await call(key, 'GET', '/v1/team/members'), 403, 'FORBIDDEN');
    expect((await browser.call('GET', '/v1/team/members', { team: team.id })).statusCode).toBe(404);
    expect((await call(team.key, 'DELETE', `/v1/team/members/${memberId}`)).statusCode).toBe(404);
  });

  it('an admin may remove themself, not an owner (403 naming memberId)', async () => {
    const team = await newTeam();
    const { memberId, key } = await keyOf(team, 'ADMIN');
    const refused = await call(key, 'DELETE', `/v1/team/members/${team.ownerId}`);
    expectError(refused, 403, 'FORBIDDEN', /^memberId: only an owner can remove an owner/);
    expect(await roleOf(team.id, team.ownerId)).toBe('OWNER');
    expect((await call(key, 'DELETE', `/v1/team/members/${memberId}`)).statusCode).toBe(200);
    expect(await roleOf(team.id, memberId)).toBeUndefined();
  });

  it('the last owner cannot be removed, even by themself (400); with another owner they can leave', async () => {
    const team = await newTeam();
    const last = await call(team.key, 'DELETE', `/v1/team/members/${team.ownerId}`);
    expectError(last, 400, 'BAD_REQUEST', /^memberId: .* is the team's last owner/);
    expect(await roleOf(team.id, team.ownerId)).toBe('OWNER');
    const second = await team.addMember('OWNER');
    expect((await call(team.key, 'DELETE', `/v1/team/members/${team.ownerId}`)).statusCode).toBe(200);
    expect((await members(team.id)).map((m) => m.id)).not.toContain(team.ownerId);
    expect(await roleOf(team.id, second)).toBe('OWNER');
  });
});
