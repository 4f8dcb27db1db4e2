// GET /v1/emails beyond the contract: status (latestStatus, repeatable), search, campaignId, the lean
// form (fields=summary) and cursor paging (every email once across pages, stable while new ones
// arrive, back again by prevCursor), with the contract's answer left exactly as it was. Statuses come
// from the real delivery path through the simulator's addresses.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readCursorPage } from '../../src/emails/list-cursor.ts';
import { fanoutKit } from '../campaigns/fanout-support.ts';
import { campaignTeam } from '../campaigns/support.ts';
import { startRelayDelivery, type RelayDelivery } from './delivery-support.ts';
import { emails, type EmailHarness, type SendingTeam } from './support.ts';

type Listed = { id: string; subject: string; html: string | null; text: string | null; campaignId: string | null };
type ListBody = { data: Listed[]; count: number; nextCursor?: string | null; prevCursor?: string | null };

let d: RelayDelivery;
let h: EmailHarness;
beforeAll(async () => void (h = (d = await startRelayDelivery()).h), 120_000);
afterAll(() => d.close());

async function list(team: { key: string }, query: string): Promise<ListBody> {
  const response = await emails(h.app, team.key).list(query);
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}
const status = async (team: { key: string }, query: string) => (await emails(h.app, team.key).list(query)).statusCode;
const ids = (body: ListBody) => body.data.map((e) => e.id);
const sim = (kind: string) => `${kind}+${Math.random().toString(36).slice(2, 8)}@simulator.herald.test`;
const second = () => h.t.clock.advance(1000);

/** Follows nextCursor from the first page (`query` and paging=cursor) to the end; every page's ids. */
async function walk(team: SendingTeam, query: string, onPage?: (n: number) => Promise<void>): Promise<string[][]> {
  const pages: string[][] = [];
  let body = await list(team, `?paging=cursor&${query}`);
  for (;;) {
    pages.push(ids(body));
    expect(body.count).toBe(body.data.length);
    await onPage?.(pages.length);
    if (!body.nextCursor) return pages;
    body = await list(team, `?${query}&cursor=${body.nextCursor}`);
  }
}

describe('the contract list', () => {
  it('answers {data, count} as before: every field of the list form, offset paging and the exact count', async () => {
    const team = await h.team({ plan: 'pro' });
    const api = emails(h.app, team.key);
    const first = await api.sent({ from: team.from(), to: sim('delivered'), subject: 'One', html: '<p>1</p>' });
    second();
    const latest = await api.sent({ from: team.from(), to: sim('delivered'), subject: 'Two', text: 'two' });
    const body = await list(team, '');
    expect(Object.keys(body).sort()).toEqual(['count', 'data']);
    expect(body.count).toBe(2);
    expect(ids(body)).toEqual([latest, first]);
    const fields =
      'bcc cc campaignId createdAt domainId from html id latestStatus replyTo scheduledAt source subject text to updatedAt';
    expect(Object.keys(body.data[0]!).sort()).toEqual(fields.split(' ').sort());
    expect(body.data[1]).toMatchObject({ html: '<p>1</p>', text: null });
    const paged = await list(team, '?limit=1&page=2');
    expect(paged).toEqual({ data: [expect.objectContaining({ id: first })], count: 2 });
    // The lean form in offset paging: the same answer without the bodies.
    const lean = await list(team, '?fields=summary');
    expect(lean.count).toBe(2);
    expect(lean.data.map((e) => [e.id, e.html, e.text])).toEqual([
      [latest, null, null],
      [first, null, null],
    ]);
  });
});

describe('status', () => {
  it('filters by latestStatus, one or several, DELIVERY_DELAYED apart from QUEUED', async () => {
    const team = await h.team({ plan: 'pro' });
    const api = emails(h.app, team.key);
    const send = (to: string, extra: object = {}) =>
      api.sent({ from: team.from(), to, subject: 'Status', text: 'x', ...extra });
    const later = new Date(h.t.clock.now().getTime() + 3600_000).toISOString();
    const sent = {
      DELIVERED: await send(sim('delivered')),
      BOUNCED: await send(sim('bounced')),
      DELIVERY_DELAYED: await send(sim('delayed')),
      SUPPRESSED: await send(sim('suppressed')),
      SCHEDULED: await send(sim('delivered'), { scheduledAt: later }),
      CANCELLED: await send(sim('delivered'), { scheduledAt: later }),
    };
    expect((await api.cancel(sent.CANCELLED)).statusCode).toBe(200);
    for (const [state, id] of Object.entries(sent)) {
      d.runner.wake();
      await expect
        .poll(async () => (await api.get(id)).json().latestStatus, { timeout: 30_000, interval: 50 })
        .toBe(state);
    }
    for (const [state, id] of Object.entries(sent)) {
      expect(ids(await list(team, `?status=${state}`)), state).toEqual([id]);
      expect(ids(await list(team, `?status=${state}&paging=cursor&fields=summary`)), state).toEqual([id]);
    }
    // The delayed email is stored QUEUED: only DELIVERY_DELAYED finds it.
    expect(await list(team, '?status=QUEUED')).toEqual({ data: [], count: 0 });
    expect(ids(await list(team, '?status=QUEUED&status=DELIVERY_DELAYED'))).toEqual([sent.DELIVERY_DELAYED]);
    const several = await list(team, '?status=BOUNCED&status=DELIVERED&status=CANCELLED');
    expect(several.count).toBe(3);
    expect(new Set(ids(several))).toEqual(new Set([sent.BOUNCED, sent.DELIVERED, sent.CANCELLED]));
    expect(await status(team, '?status=LOST')).toBe(400);
    expect(await status(team, '?status=delivered')).toBe(400);
  });
});

describe('search', () => {
  it('finds by subject or recipient, case-insensitive; a whole address by its recipients', async () => {
    const team = await h.team({ plan: 'pro' });
    const api = emails(h.app, team.key);
    const send = async (subject: string, to: string | string[], cc?: string) => {
      second();
      return api.sent({ from: team.from(), to, cc, subject, text: 'x' });
    };
    const invoice = await send('Your Invoice 42', 'alice@example.com');
    const weekly = await send('Weekly news', ['Bob Stone <bob@example.com>'], 'carol@example.com');
    const discount = await send('Discount 100% off', 'dave@example.com');
    const mention = await send('About alice@example.com', 'erin@example.com');
    const search = async (text: string) => ids(await list(team, `?search=${encodeURIComponent(text)}`));
    expect(await search('invoice')).toEqual([invoice]);
    expect(await search('WEEKLY')).toEqual([weekly]);
    expect(await search('bob stone')).toEqual([weekly]);
    expect(await search('example.com')).toEqual([mention, discount, weekly, invoice]);
    // A whole address: the emails with that recipient (to, cc or bcc), not a subject naming it.
    expect(await search('Carol@Example.com')).toEqual([weekly]);
    expect(await search('alice@example.com')).toEqual([invoice]);
    // LIKE's wildcards are plain characters here.
    expect(await search('100%')).toEqual([discount]);
    expect(await search('%')).toEqual([discount]);
    expect(await search('_')).toEqual([]);
    expect(await search('  invoice  ')).toEqual([invoice]);
    expect(ids(await list(team, '?search=news&paging=cursor&fields=summary'))).toEqual([weekly]);
    expect((await list(team, '?search=example.com&limit=1')).count).toBe(4);
    expect(await status(team, `?search=${'a'.repeat(321)}`)).toBe(400);
    expect(await status(team, '?search=%20%20')).toBe(400);
    // Another team's mail is never found.
    const other = await h.team({ plan: 'pro' });
    await emails(h.app, other.key).sent({ from: other.from(), to: 'zed@example.com', subject: 'Invoice', text: 'x' });
    expect(await search('invoice')).toEqual([invoice]);
    expect(await search('zed@example.com')).toEqual([]);
  });
});

describe('campaignId', () => {
  it("lists one campaign's emails, by offset and by cursor", async () => {
    const kit = fanoutKit(h);
    const team = await campaignTeam(h);
    await kit.addContacts(team, 3, 'reader');
    await emails(h.app, team.key).sent({
      from: team.from(),
      to: sim('delivered'),
      subject: 'Not a campaign',
      text: 'x',
    });
    const runner = await kit.startRunner();
    try {
      const { body: campaign } = await team.create({ sendNow: true });
      await kit.drain(team, [runner]);
      const body = await list(team, `?campaignId=${campaign.id}`);
      expect(body.count).toBe(3);
      expect(body.data.every((e) => e.campaignId === campaign.id && e.subject === 'What is new')).toBe(true);
      const pages = await walk(team, `campaignId=${campaign.id}&limit=2&fields=summary`);
      expect(pages.flat().sort()).toEqual(ids(body).sort());
      expect(await list(team, '?campaignId=cmp_none')).toEqual({ data: [], count: 0 });
    } finally {
      await runner.stop();
    }
  });
});

describe('cursor paging', () => {
  let team: SendingTeam;
  let all: string[];
  beforeAll(async () => {
    team = await h.team({ plan: 'pro' });
    const api = emails(h.app, team.key);
    const batch = (n: number, subject: string) =>
      api.batch(
        Array.from({ length: n }, () => ({ from: team.from(), to: sim('delivered'), subject, html: '<b>x</b>' })),
      );
    // Some a second apart, and six in the same instant: the id orders those.
    for (let i = 0; i < 13; i++) {
      second();
      expect((await batch(1, `Spaced ${i}`)).statusCode).toBe(200);
    }
    second();
    expect((await batch(6, 'Same instant')).statusCode).toBe(200);
    all = ids(await list(team, '?limit=100'));
    expect(all).toHaveLength(19);
  });

  it('walks every email once, newest first, as offset paging orders them', async () => {
    const pages = await walk(team, 'limit=5');
    expect(pages.map((p) => p.length)).toEqual([5, 5, 5, 4]);
    expect(pages.flat()).toEqual(all);
    const exact = await walk(team, 'limit=19');
    expect(exact).toEqual([all]);
    const first = await list(team, '?paging=cursor&limit=5&fields=summary');
    expect(first.prevCursor).toBeNull();
    expect(first.data.every((e) => e.html === null && e.text === null)).toBe(true);
    expect((await list(team, '?paging=cursor&limit=5')).data[0]!.html).toBe('<b>x</b>');
  });

  it('is stable while new emails arrive: they never reach the older pages', async () => {
    const api = emails(h.app, team.key);
    const fresh: string[] = [];
    const pages = await walk(team, 'limit=4', async (n) => {
      if (n > 2) return;
      second();
      fresh.push(await api.sent({ from: team.from(), to: sim('delivered'), subject: `New ${n}`, text: 'x' }));
    });
    expect(pages.flat()).toEqual(all);
    const top = await list(team, '?paging=cursor&limit=4');
    expect(ids(top).slice(0, 2)).toEqual([fresh[1], fresh[0]]);
    all = [fresh[1]!, fresh[0]!, ...all];
  });

  it('goes back by prevCursor; the newest reached answers the first page whole', async () => {
    const one = await list(team, '?paging=cursor&limit=5');
    const two = await list(team, `?limit=5&cursor=${one.nextCursor}`);
    const three = await list(team, `?limit=5&cursor=${two.nextCursor}`);
    expect(ids(three)).toEqual(all.slice(10, 15));
    const backTwo = await list(team, `?limit=5&cursor=${three.prevCursor}`);
    expect(ids(backTwo)).toEqual(ids(two));
    expect(backTwo.prevCursor).toBeTruthy();
    expect(backTwo.nextCursor).toBeTruthy();
    const backOne = await list(team, `?limit=5&cursor=${backTwo.prevCursor}`);
    expect(ids(backOne)).toEqual(ids(one));
    expect(backOne.prevCursor).toBeNull();
    // From the second page of 3, back: fewer than a page lies above, so the first page whole.
    const short = await list(team, '?paging=cursor&limit=3');
    const shortTwo = await list(team, `?limit=5&cursor=${short.nextCursor}`);
    expect(ids(await list(team, `?limit=5&cursor=${shortTwo.prevCursor}`))).toEqual(all.slice(0, 5));
  });

  it('a text search reads a bounded window a request, and its cursor reads on from where it stopped', async () => {
    // The bound is 20,000 emails in the API; four here, through the same function the route calls.
    const filter = { startDate: null, endDate: null, domainIds: null, campaignId: null, statuses: null };
    const page = (search: string, cursor: string | undefined) =>
      readCursorPage(h.t.deps.db, team.id, { ...filter, search }, { cursor, limit: 2, fields: 'summary', window: 4 });
    const expected = ids(await list(team, '?search=spaced%201&limit=100'));
    expect(expected).toHaveLength(4);
    const found: string[] = [];
    const stopped: (string | null | undefined)[] = [];
    let last = await page('spaced 1', undefined);
    for (let n = 0; ; n++) {
      expect(n).toBeLessThan(30);
      found.push(...last.data.map((e) => e.id));
      stopped.push(last.searchStoppedAt);
      if (!last.nextCursor) break;
      last = await page('spaced 1', last.nextCursor);
    }
    expect(found).toEqual(expected);
    expect(stopped.some((at) => at !== null)).toBe(true);
    // And back up from the last page, each once again (the newest page whole at the top).
    const back: string[] = [...last.data.map((e) => e.id)].reverse();
    for (let n = 0; last.prevCursor; n++) {
      expect(n).toBeLessThan(30);
      last = await page('spaced 1', last.prevCursor);
      back.push(...[...last.data.map((e) => e.id)].reverse().filter((id) => !back.includes(id)));
    }
    expect(back.reverse()).toEqual(expected);
    // A text nothing matches: an empty page that says where it stopped, and reads on from there.
    const none = await page('no such subject', undefined);
    expect(none).toMatchObject({ data: [], count: 0, prevCursor: null, searchStoppedAt: expect.any(String) });
    expect(none.nextCursor).toBeTruthy();
  });

  it('refuses a cursor that is not one of this list, or page numbers beside it', async () => {
    const one = await list(team, '?paging=cursor&limit=5');
    expect(await status(team, '?cursor=not-a-cursor')).toBe(400);
    const edited = Buffer.from(
      JSON.stringify({ l: 'emails', t: team.id, o: '=', a: '2026-01-01T00:00:00.000000Z', i: 'em_1' }),
    ).toString('base64url');
    expect(await status(team, `?cursor=${edited}`)).toBe(400);
    expect(await status(team, `?paging=cursor&page=2`)).toBe(400);
    expect(await status(team, `?cursor=${one.nextCursor}&page=2`)).toBe(400);
    expect(await status(team, '?paging=pages')).toBe(400);
    const other = await h.team({ plan: 'pro' });
    const response = await emails(h.app, other.key).list(`?cursor=${one.nextCursor}`);
    expect(response.statusCode).toBe(400);
    expect(response.json().error.message).toMatch(/^cursor: /);
  });

  it("a key limited to a domain pages through that domain's emails only", async () => {
    const domain = await team.addDomain();
    const api = emails(h.app, team.key);
    second();
    const theirs = [
      await api.sent({ from: `a@${domain.name}`, to: sim('delivered'), subject: 'Other domain', text: 'x' }),
    ];
    const { key } = await team.makeKey('full', { domainId: domain.id });
    const limited = await walk({ ...team, key }, 'limit=1');
    expect(limited.flat()).toEqual(theirs);
    expect(ids(await list({ key }, `?paging=cursor&domainId=${team.domain.id}`))).toEqual([]);
  });
});
