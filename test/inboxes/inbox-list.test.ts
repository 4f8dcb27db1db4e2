// GET /v1/inbound/inboxes and /v1/inbound/inboxes/{id} (Herald extensions): the team's live
// inboxes newest first with their address and when their latest mail that is not spam arrived (null
// before any), cursor paging that gives every inbox once, limit at its edges, deleted and other
// teams' inboxes left out (404 when read), the FULL access of the inbound endpoints; and the
// message list's inbox filter listing nothing for an inbox that is not the team's (the contract's
// list answers 400 only for its limit and cursor).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminRequest } from '../support/factory.ts';
import type { SendingTeam } from '../emails/support.ts';
import { createInbox, MAIL_DOMAIN, plainMessage, startInboxBed, uniqueLocal, type InboxBed } from './support.ts';

let bed: InboxBed;
let team: SendingTeam;
type Inbox = { id: string; name: string; address: string };
let quiet: Inbox, busy: Inbox, spammed: Inbox, gone: Inbox;
let lastGood: string;

const GTUBE = 'XJS*C4JDBQADN1.NSBN3*2IDNEN*GTUBE-STANDARD-ANTI-UBE-TEST-EMAIL*C.34X';

const make = (teamId: number, name: string) =>
  createInbox(bed.w, teamId, `${uniqueLocal(name.toLowerCase().replace(/\W/g, ''))}@${MAIL_DOMAIN}`, name);

async function inboxes(key: string, query = '') {
  const response = await bed.get(key, `/v1/inbound/inboxes${query}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as {
    data: (Inbox & { createdAt: string; lastReceivedAt: string | null })[];
    nextCursor: string | null;
  };
}

beforeAll(async () => {
  bed = await startInboxBed();
  team = await bed.w.h.team();
  // Made a second apart, so newest first is the order of making (the test clock stands still).
  for (const name of ['Gone', 'Busy', 'Spammed', 'Quiet']) {
    bed.w.h.t.clock.advance(1_000);
    const inbox = await make(team.id, name);
    if (name === 'Gone') gone = inbox;
    if (name === 'Busy') busy = inbox;
    if (name === 'Spammed') spammed = inbox;
    if (name === 'Quiet') quiet = inbox;
  }
  await bed.deliver({ from: 'a@sender.test', to: busy.address }, plainMessage({ to: busy.address, subject: 'one' }));
  await bed.deliver({ from: 'a@sender.test', to: busy.address }, plainMessage({ to: busy.address, subject: 'two' }));
  lastGood = bed.w.h.t.clock.now().toISOString();
  await bed.deliver({ from: 'a@sender.test', to: gone.address }, plainMessage({ to: gone.address }));
  await bed.deliver({ from: 'x@sender.test', to: spammed.address }, plainMessage({ to: spammed.address, text: GTUBE }));
  await adminRequest(bed.w.h.app, 'DELETE', `/teams/${team.id}/inboxes/${gone.id}`);
}, 180_000);
afterAll(() => bed?.close());

describe('GET /v1/inbound/inboxes', () => {
  it('lists the live inboxes newest first, with address and last received (spam and none: null)', async () => {
    const page = await inboxes(team.key);
    expect(page.nextCursor).toBeNull();
    expect(page.data.map((i) => i.name)).toEqual(['Quiet', 'Spammed', 'Busy']);
    const [q, s, b] = page.data;
    expect(q).toEqual({ ...quiet, createdAt: expect.any(String), lastReceivedAt: null });
    expect(s).toMatchObject({ id: spammed.id, address: spammed.address, lastReceivedAt: null });
    expect(b).toMatchObject({ id: busy.id, address: busy.address, lastReceivedAt: lastGood });
    expect(Date.parse(q!.createdAt)).toBeGreaterThan(Date.parse(s!.createdAt));
  });

  it('reads one inbox, and answers 404 for a deleted one, an unknown one and another team’s', async () => {
    const one = await bed.get(team.key, `/v1/inbound/inboxes/${busy.id}`);
    expect(one.statusCode).toBe(200);
    expect(one.json()).toEqual((await inboxes(team.key)).data.find((i) => i.id === busy.id));
    const other = await bed.w.h.team();
    const theirs = await make(other.id, 'Theirs');
    for (const id of [gone.id, 'inbox_none', theirs.id]) {
      const response = await bed.get(team.key, `/v1/inbound/inboxes/${id}`);
      expect(response.statusCode, id).toBe(404);
      expect(response.json().error.code).toBe('NOT_FOUND');
    }
    expect((await inboxes(team.key)).data.map((i) => i.id)).not.toContain(theirs.id);
    expect((await inboxes(other.key)).data.map((i) => i.id)).toEqual([theirs.id]);
  });

  it('pages by cursor, every inbox once, limit 1 to 100 (default 50)', async () => {
    const many = await bed.w.h.team();
    const made: string[] = [];
    for (let i = 0; i < 53; i++) {
      // Pairs share a second: the id orders inboxes made at one time.
      if (i % 2 === 0) bed.w.h.t.clock.advance(1_000);
      made.push((await make(many.id, `Box ${i}`)).id);
    }
    const newestFirst = [...made].sort().reverse();
    const first = await inboxes(many.key);
    expect(first.data.map((i) => i.id)).toEqual(newestFirst.slice(0, 50));
    expect((await inboxes(many.key, '?limit=100')).data).toHaveLength(53);
    for (const limit of [1, 10]) {
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const page = await inboxes(many.key, `?limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
        expect(page.data.length).toBeLessThanOrEqual(limit);
        seen.push(...page.data.map((i) => i.id));
        cursor = page.nextCursor;
      } while (cursor !== null);
      expect(seen, `limit ${limit}`).toEqual(newestFirst);
    }
    for (const [query, field] of [
      ['?limit=0', 'limit'],
      ['?limit=101', 'limit'],
      ['?limit=x', 'limit'],
      ['?cursor=abc', 'cursor'],
    ]) {
      const response = await bed.get(many.key, `/v1/inbound/inboxes${query}`);
      expect(response.statusCode, query).toBe(400);
      expect(response.json().error.message, query).toContain(field);
    }
    // Another team's cursor, and the message list's cursor, are not this list's.
    const cursor = encodeURIComponent(first.nextCursor!);
    expect((await bed.get(team.key, `/v1/inbound/inboxes?cursor=${cursor}`)).statusCode).toBe(400);
    const messages = (await bed.get(team.key, '/v1/inbound/messages?limit=1')).json().nextCursor;
    expect((await bed.get(team.key, `/v1/inbound/inboxes?cursor=${encodeURIComponent(messages)}`)).statusCode).toBe(
      400,
    );
  }, 120_000);

  it('takes the keys the inbound endpoints take: full access, domain-limited too', async () => {
    const pinned = await team.makeKey('full', { domainId: team.domain.id });
    expect((await inboxes(pinned.key)).data).toHaveLength(3);
    expect((await bed.get(pinned.key, `/v1/inbound/inboxes/${busy.id}`)).statusCode).toBe(200);
    for (const kind of ['sending', 'readonly', 'sandbox', 'live_ai'] as const) {
      const key = (await team.makeKey(kind)).key;
      for (const path of ['/v1/inbound/inboxes', `/v1/inbound/inboxes/${busy.id}`]) {
        const response = await bed.get(key, path);
        expect(response.statusCode, `${kind} ${path}`).toBe(403);
        expect(response.json().error.code).toBe('SCOPE_DENIED');
      }
    }
    const anonymous = await bed.w.h.app.inject({ method: 'GET', url: '/api/v1/inbound/inboxes' });
    expect(anonymous.statusCode).toBe(401);
  });
});

describe('GET /v1/inbound/messages?inbox=', () => {
  it("lists nothing for an inbox that is not the team's, and still lists a deleted inbox's mail", async () => {
    const other = await bed.w.h.team();
    const theirs = await make(other.id, 'Theirs');
    await bed.deliver({ from: 'a@sender.test', to: theirs.address }, plainMessage({ to: theirs.address }));
    for (const inbox of ['inbox_none', theirs.id, theirs.address, `nobody@${MAIL_DOMAIN}`]) {
      const response = await bed.get(team.key, `/v1/inbound/messages?inbox=${encodeURIComponent(inbox)}`);
      expect(response.statusCode, inbox).toBe(200);
      expect(response.json(), inbox).toEqual({ data: [], nextCursor: null });
    }
    // The other team reads its own.
    const own = await bed.get(other.key, `/v1/inbound/messages?inbox=${theirs.id}`);
    expect(own.json().data).toHaveLength(1);
    // An inbox of the team without mail answers an empty list; a deleted one still names its messages.
    expect((await bed.get(team.key, `/v1/inbound/messages?inbox=${quiet.id}`)).json()).toEqual({
      data: [],
      nextCursor: null,
    });
    expect((await bed.get(team.key, `/v1/inbound/messages?inbox=${gone.id}`)).json().data).toHaveLength(1);
    expect((await bed.get(team.key, `/v1/inbound/messages?inbox=${busy.address}`)).json().data).toHaveLength(2);
  });
});
