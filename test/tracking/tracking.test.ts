// Open and click tracking end to end: a verified domain with tracking turned on (PATCH), an HTML email
// sent through the API and delivered by the worker to the SMTP sink; the pixel and the rewritten links
// are taken from the delivered message and fetched through the app. DKIM of every delivered message
// must still verify (afterEach audit, and explicitly below).
import { simpleParser } from 'mailparser';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { LATER_OPENS_KEPT, recordEmailEvent } from '../../src/emails/index.ts';
import { Secrets } from '../../src/platform/crypto.ts';
import { openToken } from '../../src/tracking/tokens.ts';
import { call } from '../domains/support.ts';
import {
  emailJson,
  expectDkimPass,
  harnessDnsServer,
  latestStatus,
  startRelayDelivery,
  uniqueRecipient,
  waitForStatus,
  type RelayDelivery,
} from '../emails/delivery-support.ts';
import { emails, type EmailHarness, type SendingTeam } from '../emails/support.ts';
import { bearer } from '../support/factory.ts';

let d: RelayDelivery;
let h: EmailHarness;
let team: SendingTeam;

beforeAll(async () => {
  d = await startRelayDelivery();
  ({ h, team } = d);
  const on = await h.app.inject({
    method: 'PATCH',
    url: `/api/v1/domains/${team.domain.id}`,
    headers: bearer(team.key),
    payload: { openTracking: true, clickTracking: true },
  });
  expect(on.statusCode, on.body).toBe(200);
});
afterEach(async () => {
  await d.auditDkim();
});
afterAll(async () => d?.close());

const HTML =
  '<html><body><p>Hi &amp; welcome</p>' +
  '<a href="https://shop.example/p?a=1&amp;b=2" class="cta">Shop</a> ' +
  '<a href="mailto:help@shop.example">Mail us</a> <a href="tel:+15550100">Call</a> ' +
  '<a data-herald-no-track href="https://shop.example/private">Private</a>' +
  '</body></html>';

interface Delivered {
  id: string;
  html: string;
  raw: Buffer;
}

/** Sends through the API, waits for delivery, and gives the delivered HTML of each copy. */
async function sendAndDeliver(body: Record<string, unknown>): Promise<Delivered[]> {
  const id = await emails(h.app, team.key).sent(body);
  await waitForStatus(h, id, 'SENT');
  return Promise.all(
    d.messagesOf(id).map(async (m) => ({ id, raw: m.raw, html: String((await simpleParser(m.raw)).html) })),
  );
}

const pixelPath = (html: string) => new URL(/<img src="([^"]+\/t\/o\/[^"]+)"/.exec(html)![1]!).pathname;
const clickPaths = (html: string) =>
  [...html.matchAll(/href="([^"]+\/t\/c\/[^"]+)"/g)].map((m) => new URL(m[1]!).pathname);
const get = (url: string, userAgent = 'TestMail/1.0') =>
  h.app.inject({ method: 'GET', url, headers: { 'user-agent': userAgent } });
const eventsOf = async (id: string, status: string) =>
  (await emailJson(h, team.key, id)).emailEvents.filter((e) => e.status === status);
const waitForEvents = (id: string, status: string, count: number) =>
  expect.poll(async () => (await eventsOf(id, status)).length, { timeout: 5_000, interval: 20 }).toBe(count);
interface OpenData {
  recipient?: string;
  userAgent: string;
  openCount: number;
  lastOpenedAt: string;
  laterOpens: { at: string; userAgent: string }[];
}
/** Waits until the email's OPENED events count `opens` opens in all. */
const waitForOpenCount = (id: string, opens: number) =>
  expect
    .poll(
      async () => (await eventsOf(id, 'OPENED')).reduce((sum, e) => sum + (e.data as unknown as OpenData).openCount, 0),
      { timeout: 5_000, interval: 20 },
    )
    .toBe(opens);

/** The token with one payload character changed (still base64url). */
function tampered(path: string): string {
  const i = path.lastIndexOf('/') + 5;
  return `${path.slice(0, i)}${path[i] === 'A' ? 'B' : 'A'}${path.slice(i + 1)}`;
}

describe('open and click tracking', () => {
  it('delivers a pixel and rewritten links, DKIM still verifying; opens and clicks are recorded', async () => {
    const [delivered] = await sendAndDeliver({
      from: team.from(),
      to: uniqueRecipient('track'),
      subject: 'Hello',
      html: HTML,
      text: 'Hello',
    });
    const { id, html, raw } = delivered!;
    await expectDkimPass(raw, harnessDnsServer(h), 'tracked message');
    expect(html.match(/\/t\/o\//g)).toHaveLength(1);
    expect(clickPaths(html)).toHaveLength(1);
    expect(html).toContain('class="cta"');
    expect(html).toContain('<a href="mailto:help@shop.example">Mail us</a> <a href="tel:+15550100">Call</a>');
    expect(html).toContain('<a data-herald-no-track href="https://shop.example/private">Private</a>');
    expect(html).toContain('<p>Hi &amp; welcome</p>');

    for (const agent of ['Client/1', 'Client/2']) {
      const pixel = await get(pixelPath(html), agent);
      expect(pixel.statusCode).toBe(200);
      expect(pixel.headers['content-type']).toBe('image/gif');
      expect(pixel.headers['cache-control']).toContain('no-store');
      expect(pixel.rawPayload).toHaveLength(43);
      expect(pixel.rawPayload.subarray(0, 6).toString()).toBe('GIF89a');
    }
    // One event for the email: the first open, and the second in its data.
    await waitForOpenCount(id, 2);
    const [opened] = await eventsOf(id, 'OPENED');
    expect(opened!.data).toEqual({
      userAgent: 'Client/1',
      openCount: 2,
      lastOpenedAt: expect.any(String),
      laterOpens: [{ at: expect.any(String), userAgent: 'Client/2' }],
    });
    const data = opened!.data as unknown as OpenData;
    expect(data.lastOpenedAt).toBe(data.laterOpens[0]!.at);
    expect(Date.parse(data.lastOpenedAt)).toBeGreaterThanOrEqual(Date.parse(opened!.createdAt));
    expect(await latestStatus(h, id)).toBe('OPENED');

    const click = await get(clickPaths(html)[0]!);
    expect(click.statusCode).toBe(302);
    expect(click.headers.location).toBe('https://shop.example/p?a=1&b=2');
    await waitForEvents(id, 'CLICKED', 1);
    expect((await eventsOf(id, 'CLICKED'))[0]!.data).toEqual({
      link: 'https://shop.example/p?a=1&b=2',
      userAgent: 'TestMail/1.0',
    });
    expect(await latestStatus(h, id)).toBe('CLICKED');
  });

  it('many opens of one email at once are all counted in its one OPENED event; the list keeps the latest later opens', async () => {
    const [{ id, html }] = (await sendAndDeliver({
      from: team.from(),
      to: uniqueRecipient('burst'),
      subject: 'Hi',
      html: HTML,
    })) as [Delivered];
    // More requests than writers: the later ones wait together in one batch, several for this email.
    const agents = Array.from({ length: LATER_OPENS_KEPT + 6 }, (_, i) => `Burst/${i}`);
    const answers = await Promise.all(agents.map((agent) => get(pixelPath(html), agent)));
    expect(answers.map((a) => a.statusCode)).toEqual(agents.map(() => 200));
    await waitForOpenCount(id, agents.length);
    const opened = await eventsOf(id, 'OPENED');
    expect(opened).toHaveLength(1);
    const data = opened[0]!.data as unknown as OpenData;
    expect(data.laterOpens).toHaveLength(LATER_OPENS_KEPT);
    // Every agent appears once, as the first open or among the later ones, except the oldest later
    // opens the cap dropped.
    const seen = [data.userAgent, ...data.laterOpens.map((o) => o.userAgent)];
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen.every((agent) => agents.includes(agent))).toBe(true);
    const times = data.laterOpens.map((o) => o.at);
    expect(times).toEqual(times.toSorted());
    expect(await latestStatus(h, id)).toBe('OPENED');
  });

  it('a tampered or foreign token records nothing: the same GIF for the pixel, a 404 page for a link', async () => {
    const [{ id, html }] = (await sendAndDeliver({
      from: team.from(),
      to: uniqueRecipient('tamper'),
      subject: 'Hi',
      html: HTML,
    })) as [Delivered];
    const foreign = openToken(new Secrets('some-other-secret-0123456789-0123456789'), {
      teamId: team.id,
      emailId: id,
      recipient: null,
    });
    for (const path of [tampered(pixelPath(html)), `/t/o/${foreign}`, '/t/o/nonsense']) {
      const pixel = await get(path);
      expect(pixel.statusCode, path).toBe(200);
      expect(pixel.headers['content-type']).toBe('image/gif');
      expect(pixel.rawPayload).toHaveLength(43);
    }
    for (const path of [tampered(clickPaths(html)[0]!), pixelPath(html).replace('/t/o/', '/t/c/'), '/t/c/nonsense']) {
      const click = await get(path);
      expect(click.statusCode, path).toBe(404);
      expect(click.headers.location).toBeUndefined();
      expect(click.headers['content-type']).toMatch(/^text\/html/);
    }
    // Something valid afterwards, so the checks below are not read before the writes could land.
    expect((await get(pixelPath(html))).statusCode).toBe(200);
    await waitForEvents(id, 'OPENED', 1);
    expect(await eventsOf(id, 'CLICKED')).toEqual([]);
  });

  it('MARKETING copies name their recipient; their unsubscribe links are left alone', async () => {
    const template = await call(h.app, team.key, 'POST', '/v1/templates', {
      name: 'News',
      subject: 'News',
      type: 'MARKETING',
      html: '<p>News <a href="https://shop.example/n">read</a></p>',
    });
    expect(template.statusCode, template.body).toBe(200);
    const [a, b] = [uniqueRecipient('m-a'), uniqueRecipient('m-b')];
    const copies = await sendAndDeliver({ from: team.from(), to: [a, b], templateId: template.json().id });
    expect(copies).toHaveLength(2);
    const copyOfA = copies.find(
      (c) => c.html.includes(encodeURIComponent(a)) || c.raw.toString().includes(`To: ${a}`),
    )!;
    const unsubscribe = /^List-Unsubscribe:\s*<([^>]+)>/im.exec(
      copyOfA.raw.toString('utf8').replace(/\r?\n[ \t]+/g, ' '),
    )![1]!;
    expect(copyOfA.html).toContain(`href="${unsubscribe}"`);
    expect(clickPaths(copyOfA.html)).toHaveLength(1);

    expect((await get(pixelPath(copyOfA.html))).statusCode).toBe(200);
    expect((await get(clickPaths(copyOfA.html)[0]!)).headers.location).toBe('https://shop.example/n');
    await waitForEvents(copyOfA.id, 'CLICKED', 1);
    await waitForEvents(copyOfA.id, 'OPENED', 1);
    expect((await eventsOf(copyOfA.id, 'OPENED'))[0]!.data).toEqual({
      recipient: a,
      userAgent: 'TestMail/1.0',
      openCount: 1,
      lastOpenedAt: expect.any(String),
      laterOpens: [],
    });
    // The other copy of the same email has its own OPENED event; A's second open joins A's.
    const copyOfB = copies.find((c) => c !== copyOfA)!;
    expect((await get(pixelPath(copyOfB.html), 'B/1')).statusCode).toBe(200);
    expect((await get(pixelPath(copyOfA.html), 'A/2')).statusCode).toBe(200);
    await waitForOpenCount(copyOfA.id, 3);
    const byRecipient = Object.fromEntries(
      (await eventsOf(copyOfA.id, 'OPENED')).map((e) => [
        (e.data as unknown as OpenData).recipient,
        e.data as unknown as OpenData,
      ]),
    );
    expect(Object.keys(byRecipient).sort()).toEqual([a, b].sort());
    expect(byRecipient[a]).toMatchObject({ openCount: 2, laterOpens: [{ userAgent: 'A/2' }] });
    expect(byRecipient[b]).toMatchObject({ userAgent: 'B/1', openCount: 1, laterOpens: [] });
    expect((await eventsOf(copyOfA.id, 'CLICKED'))[0]!.data).toEqual({
      link: 'https://shop.example/n',
      recipient: a,
      userAgent: 'TestMail/1.0',
    });
  });

  it('an open after a bounce joins the history but the email stays BOUNCED', async () => {
    const [{ id, html }] = (await sendAndDeliver({
      from: team.from(),
      to: uniqueRecipient('bounced'),
      subject: 'Hi',
      html: HTML,
    })) as [Delivered];
    await recordEmailEvent(h.t.deps.db, team.id, id, 'BOUNCED', { reason: 'late bounce report' }, h.t.clock.now());
    expect((await get(pixelPath(html))).statusCode).toBe(200);
    await waitForEvents(id, 'OPENED', 1);
    expect(await latestStatus(h, id)).toBe('BOUNCED');
  });

  it('a domain without tracking delivers the HTML untouched', async () => {
    const plain = await team.addDomain();
    const id = await emails(h.app, team.key).sent({
      from: `hello@${plain.name}`,
      to: uniqueRecipient('plain'),
      subject: 'Hi',
      html: HTML,
    });
    await waitForStatus(h, id, 'SENT');
    const [message] = d.messagesOf(id);
    const html = String((await simpleParser(message!.raw)).html);
    // mailparser ends the part with a newline; the body is otherwise byte for byte what was sent.
    expect(html.trimEnd()).toBe(HTML);
  });
});
