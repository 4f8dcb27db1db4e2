// A session's end: sign-out, the session list and revocations, and idle expiry after 14 days.
import { beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/app.ts';
import type { TestTeam } from '../support/factory.ts';
import { newMember, sessionTestBed } from './session-support.ts';
import { setCookieOf, signedIn } from './support.ts';

const bed = sessionTestBed();
let t: TestApp, teamA: TestTeam;
beforeAll(() => {
  ({ t, teamA } = bed);
});

describe('signing out, the session list, revocations', () => {
  it('DELETE /v1/session ends the session and clears the cookie; it needs the CSRF token', async () => {
    const owner = await newMember(t, teamA, 'OWNER');
    const browser = await signedIn(t, owner.email);
    expect((await browser.bare('DELETE', '/v1/session')).statusCode).toBe(403);
    const out = await browser.call('DELETE', '/v1/session');
    expect(out.statusCode, out.body).toBe(200);
    expect(out.json()).toEqual({});
    const cleared = setCookieOf(out);
    expect(cleared.value).toBe('');
    expect(cleared.attributes).toEqual(expect.arrayContaining(['Max-Age=0', 'Path=/', 'HttpOnly', 'SameSite=Lax']));
    expect((await browser.call('GET', '/v1/session')).statusCode).toBe(401);
    expect((await browser.call('GET', '/v1/templates')).statusCode).toBe(401);
    const rows = await t.deps.db.selectFrom('sessions').select('id').where('email', '=', owner.email).execute();
    expect(rows).toHaveLength(0);
  });

  it("lists the address's live sessions, marks the current one, and revokes one", async () => {
    const owner = await newMember(t, teamA, 'OWNER');
    const first = await signedIn(t, owner.email);
    t.clock.advance(1000);
    const second = await signedIn(t, owner.email);
    const list = await second.call('GET', '/v1/session/all');
    expect(list.statusCode, list.body).toBe(200);
    const data = list.json().data as Array<{
      id: string;
      current: boolean;
      userAgent: string | null;
      createdAt: string;
      lastSeenAt: string;
    }>;
    expect(data).toHaveLength(2);
    expect(data.map((row) => row.current)).toEqual([true, false]);
    expect(data[0]).toEqual({
      id: expect.stringMatching(/^ses_/),
      createdAt: expect.any(String),
      lastSeenAt: expect.any(String),
      userAgent: 'lightMyRequest',
      current: true,
    });
    const firstId = data[1]!.id;

    // Another address's session is not this one's to end.
    const stranger = await newMember(t, bed.teamB, 'OWNER');
    const strangerBrowser = await signedIn(t, stranger.email);
    expect((await strangerBrowser.call('DELETE', `/v1/session/all/${firstId}`)).statusCode).toBe(404);
    expect((await second.call('DELETE', '/v1/session/all/ses_unknown')).statusCode).toBe(404);
    expect((await second.bare('DELETE', `/v1/session/all/${firstId}`)).statusCode).toBe(403);

    const revoked = await second.call('DELETE', `/v1/session/all/${firstId}`);
    expect(revoked.statusCode, revoked.body).toBe(200);
    expect(revoked.json()).toEqual({ id: firstId, deleted: true });
    expect(revoked.headers['set-cookie']).toBeUndefined();
    expect((await first.call('GET', '/v1/session')).statusCode).toBe(401);
    expect((await second.call('GET', '/v1/session')).statusCode).toBe(200);
    expect((await second.call('GET', '/v1/session/all')).json().data).toHaveLength(1);

    // Revoking the current one is signing out.
    const currentId = data[0]!.id;
    const self = await second.call('DELETE', `/v1/session/all/${currentId}`);
    expect(setCookieOf(self).value).toBe('');
    expect((await second.call('GET', '/v1/session')).statusCode).toBe(401);
  });
});

describe('idle expiry', () => {
  it('ends a session after 14 days without a request; each request (a minute apart) starts the 14 days over', async () => {
    const owner = await newMember(t, teamA, 'OWNER');
    const browser = await signedIn(t, owner.email);
    const lastSeen = async () =>
      (
        await t.deps.db
          .selectFrom('sessions')
          .select('last_seen_at')
          .where('email', '=', owner.email)
          .executeTakeFirstOrThrow()
      ).last_seen_at.getTime();
    const signedInAt = await lastSeen();
    // Within the minute: not written again.
    t.clock.advance(30_000);
    expect((await browser.call('GET', '/v1/templates')).statusCode).toBe(200);
    expect(await lastSeen()).toBe(signedInAt);
    t.clock.advance(13 * 24 * 60 * 60_000);
    expect((await browser.call('GET', '/v1/templates')).statusCode).toBe(200);
    expect(await lastSeen()).toBe(t.clock.now().getTime());
    t.clock.advance(13 * 24 * 60 * 60_000);
    expect((await browser.call('GET', '/v1/templates')).statusCode).toBe(200);
    t.clock.advance(14 * 24 * 60 * 60_000);
    const expired = await browser.call('GET', '/v1/templates');
    expect(expired.statusCode).toBe(401);
    expect(expired.json().error.code).toBe('UNAUTHORIZED');
    expect((await browser.call('GET', '/v1/session')).statusCode).toBe(401);
  });
});
