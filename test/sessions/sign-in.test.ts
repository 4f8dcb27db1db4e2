// Signing in by email (issue 45): POST /v1/session/sign-in mails a link and a code to a member and
// nothing to anyone else, both answered 202; POST /v1/session takes either once, within 15 minutes;
// five wrong codes end them; the limits per address and per client; the cookie's attributes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.ts';
import { bearer, createTeam, type TestTeam } from '../support/factory.ts';
import {
  createSession,
  emailedSignIn,
  freshClient,
  requestSignIn,
  sendSignInMail,
  setCookieOf,
  signInEmails,
} from './support.ts';

let t: TestApp;
let team: TestTeam;
beforeAll(async () => {
  t = await createTestApp();
  team = await createTeam(t.app);
});
afterAll(() => t.close());

/** A new member of the team, and their address. */
async function member(role: 'OWNER' | 'ADMIN' | 'MEMBER' = 'MEMBER'): Promise<string> {
  const id = await team.addMember(role);
  const row = await t.deps.db.selectFrom('members').select('email').where('id', '=', id).executeTakeFirstOrThrow();
  return row.email;
}

const TOKEN_GONE = 'token: this sign-in link has expired or was used';
const CODE_GONE = 'code: this code is wrong, has expired or was used';

describe('POST /v1/session/sign-in', () => {
  it('mails one email to a member, from the mail domain, with a link to the dashboard and a 6-digit code', async () => {
    const email = await member();
    const answer = await requestSignIn(t, email);
    expect(answer.statusCode).toBe(202);
    expect(answer.json()).toEqual({});
    await sendSignInMail(t);
    const emails = await signInEmails(t, email);
    expect(emails).toHaveLength(1);
    const [mail] = emails;
    expect(mail!.from).toBe(`sign-in@${t.deps.config.mailDomain}`);
    expect(mail!.to).toEqual([email]);
    expect(mail!.url).toBe(`${t.deps.config.publicUrl}/sign-in/${mail!.token}`);
    expect(mail!.code).toMatch(/^\d{6}$/);
    expect(mail!.text).toContain('15 minutes');
    // Asked for, not an invite's (members-public-invite.test.ts): it names no team and no inviter.
    expect(mail!.subject).toBe('Sign in to Herald');
    expect(mail!.text.startsWith('Sign in to Herald with this link:')).toBe(true);
    // Not a team's email: the team's keys cannot read it back (GET /v1/emails).
    const listed = await t.app.inject({ method: 'GET', url: '/api/v1/emails', headers: bearer(team.key) });
    expect(listed.body).not.toContain(mail!.token);
    // Stored only as keyed hashes; the mail's sealed copy is gone once sent.
    const rows = await t.deps.db.selectFrom('sign_in_requests').selectAll().where('email', '=', email).execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.mail_sealed).toBeNull();
    expect(JSON.stringify(rows)).not.toContain(mail!.token);
    expect(JSON.stringify(rows)).not.toContain(mail!.code);
  });

  it('answers 202 for an address that is no member, and sends and stores nothing', async () => {
    const stranger = `nobody-${Date.now()}@example.test`;
    const answer = await requestSignIn(t, stranger);
    expect(answer.statusCode).toBe(202);
    expect(answer.json()).toEqual({});
    await sendSignInMail(t);
    expect(await signInEmails(t, stranger)).toHaveLength(0);
    const rows = await t.deps.db.selectFrom('sign_in_requests').select('id').where('email', '=', stranger).execute();
    expect(rows).toHaveLength(0);
  });

  it('takes the address in any case and with spaces; refuses what is no address with 400 naming email', async () => {
    const email = await member();
    expect((await requestSignIn(t, `  ${email.toUpperCase()} `)).statusCode).toBe(202);
    await sendSignInMail(t);
    expect(await signInEmails(t, email)).toHaveLength(1);
    const bad = await requestSignIn(t, 'not-an-address');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.message).toMatch(/^email: /);
  });

  it('refuses a page of another origin (403 naming Origin); a request without Origin is a client, not a browser', async () => {
    const email = await member();
    const foreign = await requestSignIn(t, email, freshClient(), { origin: 'https://evil.example' });
    expect(foreign.statusCode).toBe(403);
    expect(foreign.json().error).toMatchObject({ code: 'FORBIDDEN', message: expect.stringMatching(/^Origin: /) });
    const ours = await requestSignIn(t, email, freshClient(), { origin: new URL(t.deps.config.publicUrl).origin });
    expect(ours.statusCode).toBe(202);
  });
});

describe('POST /v1/session', () => {
  it('signs in with the link once; the code of the same email is then used up too', async () => {
    const email = await member();
    const mail = await emailedSignIn(t, email);
    const session = await createSession(t, { token: mail.token });
    expect(session.statusCode, session.body).toBe(200);
    expect(session.json().member.email).toBe(email);
    const again = await createSession(t, { token: mail.token });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({ error: { code: 'BAD_REQUEST', message: TOKEN_GONE } });
    const code = await createSession(t, { email, code: mail.code });
    expect(code.statusCode).toBe(400);
    expect(code.json().error.message).toBe(CODE_GONE);
  });

  it('signs in with the email and code once; the link is then used up too', async () => {
    const email = await member();
    const mail = await emailedSignIn(t, email);
    const session = await createSession(t, { email: email.toUpperCase(), code: mail.code });
    expect(session.statusCode, session.body).toBe(200);
    expect((await createSession(t, { email, code: mail.code })).json().error.message).toBe(CODE_GONE);
    expect((await createSession(t, { token: mail.token })).json().error.message).toBe(TOKEN_GONE);
  });

  it('sets herald_session HttpOnly, SameSite=Lax, Path=/, not Secure on http', async () => {
    const email = await member();
    const mail = await emailedSignIn(t, email);
    const session = await createSession(t, { token: mail.token });
    const cookie = setCookieOf(session);
    expect(cookie.value).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(cookie.attributes).toEqual(expect.arrayContaining(['Path=/', 'HttpOnly', 'SameSite=Lax']));
    expect(cookie.attributes).not.toContain('Secure');
    expect(session.headers['cache-control']).toBe('no-store');
    // The session row keeps the token's keyed hash only.
    const rows = await t.deps.db.selectFrom('sessions').selectAll().where('email', '=', email).execute();
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows)).not.toContain(cookie.value);
  });

  it('names the field of a wrong link or code, and what is missing', async () => {
    const cases: Array<[object, string]> = [
      [{ token: 'A'.repeat(43) }, TOKEN_GONE],
      [{ token: 'short' }, TOKEN_GONE],
      [{ email: 'someone@example.test', code: '123456' }, CODE_GONE],
      [{}, 'token: required (or email and code)'],
      [{ email: 'someone@example.test' }, 'code: required with email'],
      [{ code: '123456' }, 'email: required with code'],
      [{ token: 'A'.repeat(43), code: '123456' }, 'token: give either token, or email and code'],
    ];
    for (const [body, message] of cases) {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/v1/session',
        payload: body,
        remoteAddress: freshClient(),
      });
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json().error.message).toBe(message);
    }
    const notSix = await createSession(t, { email: 'someone@example.test', code: '12345' });
    expect(notSix.statusCode).toBe(400);
    expect(notSix.json().error.message).toMatch(/^code: /);
  });

  it('refuses a link or code 15 minutes old (the test clock)', async () => {
    const email = await member();
    const mail = await emailedSignIn(t, email);
    t.clock.advance(15 * 60_000);
    expect((await createSession(t, { token: mail.token })).json().error.message).toBe(TOKEN_GONE);
    expect((await createSession(t, { email, code: mail.code })).json().error.message).toBe(CODE_GONE);
  });

  it('takes a link or code just before 15 minutes', async () => {
    const email = await member();
    const mail = await emailedSignIn(t, email);
    t.clock.advance(15 * 60_000 - 1000);
    expect((await createSession(t, { email, code: mail.code })).statusCode).toBe(200);
  });

  it('five wrong codes end the code: the right one is refused after them', async () => {
    const email = await member();
    const mail = await emailedSignIn(t, email);
    const wrong = mail.code === '000000' ? '111111' : '000000';
    for (let i = 0; i < 5; i++) {
      const response = await createSession(t, { email, code: wrong });
      expect(response.statusCode).toBe(400);
      expect(response.json().error.message).toBe(CODE_GONE);
    }
    expect((await createSession(t, { email, code: mail.code })).json().error.message).toBe(CODE_GONE);
  });

  it('four wrong codes leave the right one working', async () => {
    const email = await member();
    const mail = await emailedSignIn(t, email);
    const wrong = mail.code === '000000' ? '111111' : '000000';
    for (let i = 0; i < 4; i++) expect((await createSession(t, { email, code: wrong })).statusCode).toBe(400);
    expect((await createSession(t, { email, code: mail.code })).statusCode).toBe(200);
  });

  it('refuses a cross-site sign-in (Origin of another site): a page cannot sign its visitor in', async () => {
    const email = await member();
    const mail = await emailedSignIn(t, email);
    const foreign = await createSession(t, { token: mail.token }, { origin: 'https://evil.example' });
    expect(foreign.statusCode).toBe(403);
    expect(foreign.json().error.message).toMatch(/^Origin: /);
    expect(foreign.headers['set-cookie']).toBeUndefined();
    // Refused before the link was touched: it still works from the dashboard.
    const ours = await createSession(t, { token: mail.token }, { origin: new URL(t.deps.config.publicUrl).origin });
    expect(ours.statusCode).toBe(200);
  });
});

describe('rate limits', () => {
  it('an address gets at most 5 sign-in emails a quarter hour; the 6th request is still 202 and sends nothing', async () => {
    const email = await member();
    for (let i = 0; i < 6; i++) expect((await requestSignIn(t, email)).statusCode).toBe(202);
    await sendSignInMail(t);
    expect(await signInEmails(t, email)).toHaveLength(5);
    // The next quarter hour counts afresh.
    t.clock.advance(15 * 60_000);
    expect((await requestSignIn(t, email)).statusCode).toBe(202);
    await sendSignInMail(t);
    expect(await signInEmails(t, email)).toHaveLength(6);
  });

  it('a client gets 20 sign-in requests a quarter hour, then 429 with Retry-After', async () => {
    // At the start of a window, so that the 20 fall in one.
    const now = t.clock.now().getTime();
    t.clock.advance(15 * 60_000 - (now % (15 * 60_000)));
    const client = freshClient();
    for (let i = 0; i < 20; i++)
      expect((await requestSignIn(t, `stranger${i}@example.test`, client)).statusCode).toBe(202);
    const refused = await requestSignIn(t, 'stranger@example.test', client);
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error.code).toBe('RATE_LIMITED');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    // Another client is not held back.
    expect((await requestSignIn(t, 'stranger@example.test')).statusCode).toBe(202);
  });

  it('a client gets 20 sign-in attempts a quarter hour, then 429', async () => {
    const now = t.clock.now().getTime();
    t.clock.advance(15 * 60_000 - (now % (15 * 60_000)));
    const client = freshClient();
    const attempt = () =>
      t.app.inject({
        method: 'POST',
        url: '/api/v1/session',
        payload: { email: 'someone@example.test', code: '123456' },
        remoteAddress: client,
      });
    for (let i = 0; i < 20; i++) expect((await attempt()).statusCode).toBe(400);
    expect((await attempt()).statusCode).toBe(429);
  });
});

describe('over https', () => {
  it('the cookie is Secure when HERALD_PUBLIC_URL is https', async () => {
    const secure = await createTestApp({ config: { publicUrl: 'https://herald.example' } });
    try {
      const other = await createTeam(secure.app);
      const id = await other.addMember('MEMBER');
      const { email } = await secure.deps.db
        .selectFrom('members')
        .select('email')
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      const mail = await emailedSignIn(secure, email);
      expect(mail.url).toBe(`https://herald.example/sign-in/${mail.token}`);
      const session = await createSession(secure, { token: mail.token });
      expect(setCookieOf(session).attributes).toEqual(
        expect.arrayContaining(['Path=/', 'HttpOnly', 'SameSite=Lax', 'Secure']),
      );
    } finally {
      await secure.close();
    }
  });
});
