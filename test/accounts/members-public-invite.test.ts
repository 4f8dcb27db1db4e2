// An invite's sign-in mail (POST /v1/team/members): it says who added the address to which team,
// above a link and a code that work for 15 minutes. It is queued in the invite's own transaction
// with the member row and the audit entry: all three are there right after the 201, none after a
// refused invite, and none when the mail cannot be stored (the invite answers 500 and is not made).
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { adminRequest } from '../support/factory.ts';
import { createSession, requestSignIn, sendSignInMail, signedIn, signInEmails } from '../sessions/support.ts';
import { address, expectError, keyOf, useMembersApp } from './member-support.ts';

const app = useMembersApp();
const { call, members, audited, newTeam } = app;

/** The sign-in rows of an address: what the sign-in-mail queue will send. */
const signIns = (email: string) =>
  app.t.deps.db
    .selectFrom('sign_in_requests')
    .select(['mail_sealed', 'mail_due_at', 'expires_at', 'used_at'])
    .where('email', '=', email)
    .execute();

/** A team named by the operator, and a full access key of an admin with a name. */
async function namedTeam(name: string) {
  const { app: server } = app.t;
  const team = await adminRequest(server, 'POST', '/teams', { name, plan: 'pro' });
  await adminRequest(server, 'PATCH', `/teams/${team.id}`, { apiRateLimit: 100_000 });
  const inviterEmail = `inviter-${team.id}@example.test`;
  const body = { email: inviterEmail, name: 'Grace Hopper', role: 'ADMIN' };
  const inviter = await adminRequest(server, 'POST', `/teams/${team.id}/members`, body);
  const { key } = await adminRequest(server, 'POST', `/teams/${team.id}/api-keys`, {
    kind: 'full',
    memberId: inviter.id,
  });
  return { id: team.id as number, key: key as string, inviterEmail };
}

describe("the invite's mail", () => {
  it('says who added the address to which team, above the link and code (text and HTML, escaped)', async () => {
    const team = await namedTeam('R&D <Labs>');
    const email = address(team);
    const invited = await call(team.key, 'POST', '/v1/team/members', { email, role: 'MEMBER' });
    expect(invited.statusCode, invited.body).toBe(201);
    await sendSignInMail(app.t);
    const [mail, ...more] = await signInEmails(app.t, email);
    expect(more).toHaveLength(0);
    const line = `Grace Hopper (${team.inviterEmail}) added you to the team R&D <Labs> on Herald.`;
    expect(mail!.subject).toBe('You were added to the team R&D <Labs> on Herald');
    expect(mail!.text.indexOf(line)).toBe(0);
    expect(mail!.text.indexOf(line)).toBeLessThan(mail!.text.indexOf(mail!.url));
    expect(mail!.text).toContain(`enter this code: ${mail!.code}`);
    expect(mail!.text).toContain('for 15 minutes');
    expect(mail!.html).toContain(
      `<p>Grace Hopper (${team.inviterEmail}) added you to the team R&amp;D &lt;Labs&gt; on Herald.</p>`,
    );
    expect(mail!.html).not.toContain('<Labs>');
    expect(mail!.html.indexOf('added you')).toBeLessThan(mail!.html.indexOf(mail!.url));
    // The code works as a sign-in's does, once.
    const session = await createSession(app.t, { email, code: mail!.code });
    expect(session.statusCode, session.body).toBe(200);
    expect(session.json().team).toMatchObject({ id: team.id, name: 'R&D <Labs>', role: 'MEMBER' });
  });

  it('names the signed-in admin who invited; a later sign-in mail is a plain one', async () => {
    const team = await newTeam();
    const adminEmail = `admin-${team.id}@example.test`;
    await adminRequest(app.t.app, 'POST', `/teams/${team.id}/members`, { email: adminEmail, role: 'ADMIN' });
    const admin = await signedIn(app.t, adminEmail);
    const email = address(team);
    const invited = await admin.call('POST', '/v1/team/members', { team: team.id, payload: { email, role: 'MEMBER' } });
    expect(invited.statusCode, invited.body).toBe(201);
    expect((await requestSignIn(app.t, email)).statusCode).toBe(202);
    await sendSignInMail(app.t);
    // The queue sends both at once, so the outbox holds them in the order their sends finished.
    const mails = await signInEmails(app.t, email);
    expect(mails).toHaveLength(2);
    const invite = mails.find((mail) => mail.subject !== 'Sign in to Herald');
    const plain = mails.find((mail) => mail !== invite);
    expect(invite!.text).toMatch(new RegExp(`^${adminEmail} added you to the team Team \\d+ on Herald\\.`));
    expect(plain!.subject).toBe('Sign in to Herald');
    expect(plain!.text).not.toContain('added you');
    expect(plain!.html).not.toContain('added you');
  });
});

describe("the invite's transaction", () => {
  it('the member, its audit entry and its queued mail are all there right after the 201', async () => {
    const team = await newTeam();
    const email = address(team);
    const invited = await call(team.key, 'POST', '/v1/team/members', { email, role: 'MEMBER' });
    expect(invited.statusCode, invited.body).toBe(201);
    // Nothing has run the queue: the mail was stored by the request itself.
    expect((await members(team.id)).map((m) => m.email)).toContain(email);
    expect((await audited(team.id)).map((a) => [a.action, a.target])).toEqual([['member.invited', email]]);
    const [row, ...more] = await signIns(email);
    expect(more).toHaveLength(0);
    expect(row).toMatchObject({ mail_due_at: app.t.clock.now(), used_at: null });
    expect(row!.mail_sealed).not.toBeNull();
    expect(row!.expires_at.getTime() - app.t.clock.now().getTime()).toBe(15 * 60_000);
    await sendSignInMail(app.t);
    expect((await signIns(email))[0]!.mail_sealed).toBeNull();
  });

  it('a refused invite stores no mail (409, owner only, the plan full)', async () => {
    const team = await newTeam({ plan: 'free' });
    const email = address(team);
    expect((await call(team.key, 'POST', '/v1/team/members', { email, role: 'MEMBER' })).statusCode).toBe(201);
    await sendSignInMail(app.t);
    const again = await call(team.key, 'POST', '/v1/team/members', { email, role: 'ADMIN' });
    expectError(again, 409, 'CONFLICT');
    expect((await signIns(email)).filter((r) => r.mail_sealed !== null)).toHaveLength(0);
    expect(await signIns(email)).toHaveLength(1);

    const { key } = await keyOf(team, 'ADMIN');
    const owner = address(team);
    expectError(await call(key, 'POST', '/v1/team/members', { email: owner, role: 'OWNER' }), 403, 'FORBIDDEN');
    expect(await signIns(owner)).toHaveLength(0);

    while ((await members(team.id)).length < 5)
      expect(
        (await call(team.key, 'POST', '/v1/team/members', { email: address(team), role: 'MEMBER' })).statusCode,
      ).toBe(201);
    const past = address(team);
    expectError(await call(team.key, 'POST', '/v1/team/members', { email: past, role: 'MEMBER' }), 403, 'FORBIDDEN');
    expect(await signIns(past)).toHaveLength(0);
    expect((await audited(team.id)).filter((a) => a.action === 'member.invited')).toHaveLength(3);
  });

  it('when the mail cannot be stored, the invite answers 500 and leaves no member, audit entry or mail', async () => {
    const team = await newTeam();
    const before = await members(team.id);
    const email = `refused-mail-${team.id}@example.test`;
    // The API has no way to make a sign-in's insert fail, so the test's database refuses this one
    // address (a trigger of the test's own, dropped after): the fault comes after the member's insert.
    const db = app.t.deps.db;
    const name = sql.id(`test_refuse_sign_in_${team.id}`);
    await sql`CREATE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.email LIKE 'refused-mail-%' THEN RAISE EXCEPTION 'test: this sign-in cannot be stored'; END IF;
        RETURN NEW;
      END $$`.execute(db);
    await sql`CREATE TRIGGER ${name} BEFORE INSERT ON sign_in_requests
      FOR EACH ROW EXECUTE FUNCTION ${name}()`.execute(db);
    try {
      const refused = await call(team.key, 'POST', '/v1/team/members', { email, role: 'MEMBER' });
      expect(refused.statusCode, refused.body).toBe(500);
    } finally {
      await sql`DROP TRIGGER ${name} ON sign_in_requests`.execute(db);
      await sql`DROP FUNCTION ${name}()`.execute(db);
    }
    expect(await members(team.id)).toEqual(before);
    expect(await audited(team.id)).toEqual([]);
    expect(await signIns(email)).toHaveLength(0);
    // With the database well again, the same invite goes through: nothing half-made was left behind.
    const invited = await call(team.key, 'POST', '/v1/team/members', { email, role: 'MEMBER' });
    expect(invited.statusCode, invited.body).toBe(201);
    expect(await signIns(email)).toHaveLength(1);
  });
});
