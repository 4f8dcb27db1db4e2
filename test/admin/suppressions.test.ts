// Admin API and CLI table for a team's suppression list: list (newest first, cursor paged, filter),
// read one, delete; other teams' rows are invisible; the token is required.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminCommands } from '../../src/admin/cli-commands.ts';
import { createTestApp, TEST_ADMIN_TOKEN, type TestApp } from '../support/app.ts';
import { createTeam } from '../support/factory.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const admin = (method: 'GET' | 'DELETE', url: string, token = TEST_ADMIN_TOKEN) =>
  t.app.inject({ method, url: `/admin/v1${url}`, headers: { authorization: `Bearer ${token}` } });

async function suppress(teamId: number, email: string, reason: string, at: Date, emailId: string | null = null) {
  await t.deps.db
    .insertInto('suppressions')
    .values({ team_id: teamId, email, reason, email_id: emailId, created_at: at })
    .execute();
}

describe('suppressions admin API', () => {
  it('lists newest first in cursor pages, ties broken without repeats', async () => {
    const team = await createTeam(t.app);
    const base = Date.parse('2025-03-01T00:00:00.000Z');
    // Five rows, two of them in the same millisecond.
    await suppress(team.id, 'a@example.org', 'HARD_BOUNCE', new Date(base), 'em_1');
    await suppress(team.id, 'b@example.org', 'COMPLAINT', new Date(base + 1000));
    await suppress(team.id, 'c@example.org', 'HARD_BOUNCE', new Date(base + 1000));
    await suppress(team.id, 'd@example.org', 'MANUAL', new Date(base + 2000));
    await suppress(team.id, 'e@example.org', 'HARD_BOUNCE', new Date(base + 3000));
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const response = await admin(
        'GET',
        `/teams/${team.id}/suppressions?limit=2${cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`}`,
      );
      expect(response.statusCode, response.body).toBe(200);
      const page = response.json() as { data: { email: string }[]; nextCursor: string | null };
      seen.push(...page.data.map((row) => row.email));
      cursor = page.nextCursor;
      pages++;
    } while (cursor !== null && pages < 10);
    expect(seen).toEqual(['e@example.org', 'd@example.org', 'c@example.org', 'b@example.org', 'a@example.org']);
    expect(pages).toBe(3);
    const all = (await admin('GET', `/teams/${team.id}/suppressions`)).json();
    expect(all.nextCursor).toBeNull();
    expect(all.data.at(-1)).toEqual({
      email: 'a@example.org',
      reason: 'HARD_BOUNCE',
      emailId: 'em_1',
      createdAt: '2025-03-01T00:00:00.000Z',
    });
  });

  it('filters by address, case-insensitively', async () => {
    const team = await createTeam(t.app);
    await suppress(team.id, 'x@example.org', 'COMPLAINT', new Date());
    await suppress(team.id, 'y@example.org', 'COMPLAINT', new Date());
    const page = (await admin('GET', `/teams/${team.id}/suppressions?email=X@Example.ORG`)).json();
    expect(page.data.map((row: { email: string }) => row.email)).toEqual(['x@example.org']);
  });

  it('reads and deletes one address; a second delete is 404', async () => {
    const team = await createTeam(t.app);
    await suppress(team.id, 'z@example.org', 'HARD_BOUNCE', new Date('2025-01-02T03:04:05.006Z'), 'em_9');
    const one = await admin('GET', `/teams/${team.id}/suppressions/${encodeURIComponent('Z@example.org')}`);
    expect(one.json()).toEqual({
      email: 'z@example.org',
      reason: 'HARD_BOUNCE',
      emailId: 'em_9',
      createdAt: '2025-01-02T03:04:05.006Z',
    });
    const deleted = await admin('DELETE', `/teams/${team.id}/suppressions/z@example.org`);
    expect(deleted.statusCode).toBe(200);
    expect(deleted.json()).toEqual({ email: 'z@example.org', deleted: true });
    expect((await admin('DELETE', `/teams/${team.id}/suppressions/z@example.org`)).statusCode).toBe(404);
    expect((await admin('GET', `/teams/${team.id}/suppressions/z@example.org`)).statusCode).toBe(404);
    const row = await t.deps.db
      .selectFrom('suppressions')
      .select('email')
      .where('team_id', '=', team.id)
      .executeTakeFirst();
    expect(row).toBeUndefined();
  });

  it("another team's rows answer as missing, and its cursors are refused", async () => {
    const mine = await createTeam(t.app);
    const theirs = await createTeam(t.app);
    await suppress(theirs.id, 'p@example.org', 'COMPLAINT', new Date());
    await suppress(theirs.id, 'q@example.org', 'COMPLAINT', new Date());
    expect((await admin('GET', `/teams/${mine.id}/suppressions/p@example.org`)).statusCode).toBe(404);
    expect((await admin('DELETE', `/teams/${mine.id}/suppressions/p@example.org`)).statusCode).toBe(404);
    expect((await admin('GET', `/teams/${mine.id}/suppressions`)).json()).toEqual({ data: [], nextCursor: null });
    const { nextCursor } = (await admin('GET', `/teams/${theirs.id}/suppressions?limit=1`)).json();
    expect(nextCursor).toEqual(expect.any(String));
    expect(
      (await admin('GET', `/teams/${mine.id}/suppressions?cursor=${encodeURIComponent(nextCursor)}`)).statusCode,
    ).toBe(400);
    expect((await admin('GET', `/teams/${theirs.id}/suppressions/p@example.org`)).statusCode).toBe(200);
  });

  it('answers 404 for an unknown team, 400 for limits out of range, 401 without the token', async () => {
    expect((await admin('GET', '/teams/999999999/suppressions')).statusCode).toBe(404);
    const team = await createTeam(t.app);
    expect((await admin('GET', `/teams/${team.id}/suppressions?limit=100`)).statusCode).toBe(200);
    expect((await admin('GET', `/teams/${team.id}/suppressions?limit=101`)).statusCode).toBe(400);
    expect((await admin('GET', `/teams/${team.id}/suppressions?limit=0`)).statusCode).toBe(400);
    expect((await admin('GET', `/teams/${team.id}/suppressions`, 'wrong-token')).statusCode).toBe(401);
    expect((await admin('DELETE', `/teams/${team.id}/suppressions/a@example.org`, 'wrong-token')).statusCode).toBe(401);
  });

  it('appears in the OpenAPI document', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: `${t.deps.config.apiPrefix}/v1/openapi.json` })).json();
    const paths = Object.keys(doc.paths ?? {});
    expect(paths.some((p) => p.endsWith('/teams/{teamId}/suppressions'))).toBe(true);
    expect(paths.some((p) => p.endsWith('/teams/{teamId}/suppressions/{email}'))).toBe(true);
  });
});

describe('herald admin suppressions', () => {
  const command = (action: string) => adminCommands.find((c) => c.resource === 'suppressions' && c.action === action)!;

  it('maps list, get and delete to the admin API', () => {
    expect(command('list').toRequest({ team: '7' }, [])).toEqual({ method: 'GET', path: '/teams/7/suppressions' });
    expect(command('list').toRequest({ team: '7', email: 'a+b@example.org', limit: '5' }, [])).toEqual({
      method: 'GET',
      path: '/teams/7/suppressions?email=a%2Bb%40example.org&limit=5',
    });
    expect(command('get').toRequest({ team: '7', email: 'a+b@example.org' }, [])).toEqual({
      method: 'GET',
      path: '/teams/7/suppressions/a%2Bb%40example.org',
    });
    expect(command('delete').toRequest({ team: '7', email: 'a@example.org' }, [])).toEqual({
      method: 'DELETE',
      path: '/teams/7/suppressions/a%40example.org',
    });
    expect(() => command('delete').toRequest({ team: '7' }, [])).toThrow(/--email/);
    expect(() => command('list').toRequest({}, [])).toThrow(/team/);
  });
});
