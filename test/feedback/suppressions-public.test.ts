// The team's own suppression list through the public API (GET, POST /v1/suppressions, DELETE
// /v1/suppressions/{email}): add, list newest first in cursor pages, filter, remove; a suppressed
// address gets a SUPPRESSED email and a removed one is sent to again; the access rule of each
// endpoint; other teams' rows as missing; bad input changing nothing; the audit log entries.
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emails, startEmailHarness, type EmailHarness, type SendingTeam } from '../emails/support.ts';
import { bearer, createTeam, type KeyKind } from '../support/factory.ts';

let h: EmailHarness;
let team: SendingTeam;
beforeAll(async () => {
  h = await startEmailHarness();
  team = await h.team();
});
afterAll(() => h.close());

type Method = 'GET' | 'POST' | 'DELETE';
const call = (key: string, method: Method, url: string, payload?: object): Promise<LightMyRequestResponse> =>
  h.app.inject({ method, url: `/api${url}`, headers: bearer(key), ...(payload === undefined ? {} : { payload }) });
const add = (key: string, body: object) => call(key, 'POST', '/v1/suppressions', body);
const rowsOf = async (teamId: number) =>
  (await h.t.deps.db.selectFrom('suppressions').select(['email', 'reason']).where('team_id', '=', teamId).execute())
    .map((row) => `${row.email} ${row.reason}`)
    .sort();

describe('add, list, remove', () => {
  it('adds (201), answers an address already listed with its row (200), a complaint replacing another reason', async () => {
    const added = await add(team.key, { email: 'Ada@Example.NET' });
    expect(added.statusCode, added.body).toBe(201);
    const row = { email: 'ada@example.net', reason: 'MANUAL', emailId: null, createdAt: h.t.clock.now().toISOString() };
    expect(added.json()).toEqual(row);
    h.t.clock.advance(1000);
    const again = await add(team.key, { email: 'ada@example.net', reason: 'HARD_BOUNCE' });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(row);
    const complaint = await add(team.key, { email: 'ada@example.net', reason: 'COMPLAINT' });
    expect(complaint.statusCode).toBe(200);
    expect(complaint.json()).toEqual({ ...row, reason: 'COMPLAINT' });
  });

  it('lists newest first in cursor pages, filters by address, removes once', async () => {
    const listing = await createTeam(h.app);
    for (const local of ['a', 'b', 'c', 'd', 'e']) {
      expect((await add(listing.key, { email: `${local}@example.org` })).statusCode).toBe(201);
      h.t.clock.advance(1000);
    }
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const query: string = cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`;
      const page = await call(listing.key, 'GET', `/v1/suppressions?limit=2${query}`);
      expect(page.statusCode, page.body).toBe(200);
      seen.push(...page.json().data.map((row: { email: string }) => row.email));
      cursor = page.json().nextCursor;
      pages++;
    } while (cursor !== null && pages < 10);
    expect(seen).toEqual(['e', 'd', 'c', 'b', 'a'].map((local) => `${local}@example.org`));
    expect(pages).toBe(3);

    const filtered = (await call(listing.key, 'GET', '/v1/suppressions?email=C@Example.ORG')).json();
    expect(filtered).toEqual({ data: [expect.objectContaining({ email: 'c@example.org' })], nextCursor: null });

    const removed = await call(listing.key, 'DELETE', '/v1/suppressions/C@example.org');
    expect(removed.statusCode).toBe(200);
    expect(removed.json()).toEqual({ email: 'c@example.org', deleted: true });
    expect((await call(listing.key, 'DELETE', '/v1/suppressions/c@example.org')).statusCode).toBe(404);
    expect((await call(listing.key, 'GET', '/v1/suppressions?email=c@example.org')).json().data).toEqual([]);
  });

  it('a suppressed address gets a SUPPRESSED email; once removed it is sent to again', async () => {
    const api = emails(h.app, team.key);
    expect((await add(team.key, { email: 'gone@example.com' })).statusCode).toBe(201);
    const suppressed = await api.sent({ from: team.from(), to: 'Gone@example.com', subject: 'S', text: 'x' });
    const email = (await api.get(suppressed)).json();
    expect(email.emailEvents.map((e: { status: string }) => e.status)).toEqual(['SUPPRESSED']);
    expect(email.emailEvents[0].data).toEqual({ recipients: ['gone@example.com'] });

    expect((await call(team.key, 'DELETE', '/v1/suppressions/gone@example.com')).statusCode).toBe(200);
    const sent = await api.sent({ from: team.from(), to: 'gone@example.com', subject: 'S', text: 'x' });
    expect((await api.get(sent)).json().emailEvents.map((e: { status: string }) => e.status)).toEqual(['QUEUED']);
  });
});

describe('access', () => {
  const endpoints: [Method, string, object?][] = [
    ['GET', '/v1/suppressions'],
    ['POST', '/v1/suppressions', { email: 'access@example.com' }],
    ['DELETE', '/v1/suppressions/access@example.com'],
  ];
  const attempt = (key: string, [method, url, body]: [Method, string, object?]) => call(key, method, url, body);
  const expectRefused = (response: LightMyRequestResponse, code: string) => {
    expect(response.statusCode, response.body).toBe(403);
    expect(response.json().error.code).toBe(code);
  };

  for (const kind of ['sending', 'sandbox', 'live_ai'] as KeyKind[]) {
    it(`a ${kind} key: SCOPE_DENIED on every endpoint`, async () => {
      const { key } = await team.makeKey(kind);
      for (const endpoint of endpoints) expectRefused(await attempt(key, endpoint), 'SCOPE_DENIED');
    });
  }

  it("a read only key made by an admin lists and may not change; a member's keys are FORBIDDEN", async () => {
    const admin = await team.addMember('ADMIN');
    const reader = (await team.makeKey('readonly', { memberId: admin })).key;
    expect((await attempt(reader, endpoints[0]!)).statusCode).toBe(200);
    expectRefused(await attempt(reader, endpoints[1]!), 'SCOPE_DENIED');
    expectRefused(await attempt(reader, endpoints[2]!), 'SCOPE_DENIED');
    const member = await team.addMember('MEMBER');
    const full = (await team.makeKey('full', { memberId: member })).key;
    for (const endpoint of endpoints) expectRefused(await attempt(full, endpoint), 'FORBIDDEN');
    expectRefused(
      await attempt((await team.makeKey('readonly', { memberId: member })).key, endpoints[0]!),
      'FORBIDDEN',
    );
    expect(await rowsOf(team.id)).not.toContain('access@example.com MANUAL');
  });

  it("an admin's full key changes the list; limited to a domain it is DOMAIN_PINNED; no key is 401", async () => {
    const admin = await team.addMember('ADMIN');
    const { key } = await team.makeKey('full', { memberId: admin });
    expect((await attempt(key, endpoints[1]!)).statusCode).toBe(201);
    expect((await attempt(key, endpoints[2]!)).statusCode).toBe(200);
    const pinned = await team.makeKey('full', { domainId: team.domain.id });
    for (const endpoint of endpoints) expectRefused(await attempt(pinned.key, endpoint), 'DOMAIN_PINNED');
    expect((await h.app.inject({ method: 'GET', url: '/api/v1/suppressions' })).statusCode).toBe(401);
  });
});

describe('other teams, bad input', () => {
  it("another team's addresses answer as missing and stay; its cursor is 400", async () => {
    const mine = await createTeam(h.app);
    const theirs = await createTeam(h.app);
    await add(theirs.key, { email: 'p@example.org' });
    await add(theirs.key, { email: 'q@example.org' });
    expect((await call(mine.key, 'DELETE', '/v1/suppressions/p@example.org')).statusCode).toBe(404);
    expect((await call(mine.key, 'GET', '/v1/suppressions')).json()).toEqual({ data: [], nextCursor: null });
    expect(await rowsOf(theirs.id)).toEqual(['p@example.org MANUAL', 'q@example.org MANUAL']);
    const { nextCursor } = (await call(theirs.key, 'GET', '/v1/suppressions?limit=1')).json();
    const foreign = await call(mine.key, 'GET', `/v1/suppressions?cursor=${encodeURIComponent(nextCursor)}`);
    expect(foreign.statusCode).toBe(400);
  });

  it('400 naming the field and the limit; nothing changed', async () => {
    const fresh = await createTeam(h.app);
    const local = (length: number) => `${'a'.repeat(64)}@${'b'.repeat(length - 65 - 4)}.com`;
    const cases: [object, RegExp][] = [
      [{}, /email/],
      [{ email: 'not an address' }, /email/],
      [{ email: local(321) }, /email: .*320/],
      [{ email: 'x@example.com', reason: 'UNSUBSCRIBED' }, /reason/],
    ];
    for (const [body, message] of cases) {
      const response = await add(fresh.key, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json().error.message).toMatch(message);
    }
    for (const query of ['limit=0', 'limit=101', 'cursor=forged']) {
      const response = await call(fresh.key, 'GET', `/v1/suppressions?${query}`);
      expect(response.statusCode, query).toBe(400);
      expect(response.json().error.message).toMatch(/limit|cursor/);
    }
    expect((await call(fresh.key, 'GET', '/v1/suppressions?limit=100')).statusCode).toBe(200);
    expect(await rowsOf(fresh.id)).toEqual([]);
    expect((await add(fresh.key, { email: local(320) })).statusCode).toBe(201);
  });
});

describe('audit log', () => {
  it('records each address added and removed, with the key that did it; an add that changed nothing is not', async () => {
    const audited = await createTeam(h.app);
    await add(audited.key, { email: 'log@example.com' });
    await add(audited.key, { email: 'log@example.com' });
    h.t.clock.advance(1000);
    await call(audited.key, 'DELETE', '/v1/suppressions/log@example.com');
    const entries = (await call(audited.key, 'GET', '/v1/audit-log')).json().data;
    expect(entries).toEqual([
      expect.objectContaining({
        action: 'suppression.removed',
        target: 'log@example.com',
        method: 'DELETE',
        path: '/v1/suppressions/log%40example.com',
        status: 200,
        key: expect.objectContaining({ kind: 'full', memberId: audited.ownerId }),
      }),
      expect.objectContaining({ action: 'suppression.added', target: 'log@example.com', method: 'POST', status: 201 }),
    ]);
  });
});
