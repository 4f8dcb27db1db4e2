// Signed unsubscribe links through HTTP against the real database: tokens, the anti-scanner GET page,
// RFC 8058 one-click POST, the email-recipient link's effect on unsubscribes and contacts, tenancy.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { confirmationUrl } from '../../src/contacts/confirmation-links.ts';
import {
  contactUnsubscribeUrl,
  emailUnsubscribeUrl,
  readUnsubscribeToken,
} from '../../src/platform/unsubscribe-links.ts';
import { Secrets } from '../../src/platform/crypto.ts';
import { newId } from '../../src/platform/ids.ts';
import { signToken } from '../../src/platform/signed-tokens.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { createTeam, type TestTeam } from '../support/factory.ts';

let t: TestApp;
let teamA: TestTeam;
let teamB: TestTeam;

beforeAll(async () => {
  t = await createTestApp({ config: { publicUrl: 'https://links.herald.test' } });
  teamA = await createTeam(t.app);
  teamB = await createTeam(t.app);
});
afterAll(() => t.close());

async function book(teamId: number): Promise<string> {
  const id = newId('cb_');
  const now = t.clock.now();
  await t.deps.db
    .insertInto('contact_books')
    .values({ id, team_id: teamId, name: 'News', emoji: '📙', created_at: now, updated_at: now })
    .execute();
  return id;
}

async function contact(teamId: number, bookId: string, email: string): Promise<string> {
  const id = newId('ct_');
  const now = t.clock.now();
  await t.deps.db
    .insertInto('contacts')
    .values({
      id,
      team_id: teamId,
      contact_book_id: bookId,
      email,
      confirmed_at: now,
      created_at: now,
      updated_at: now,
    })
    .execute();
  return id;
}

const readContact = (id: string) =>
  t.deps.db
    .selectFrom('contacts')
    .select(['subscribed', 'unsubscribed_at', 'updated_at'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
const unsubscribesOf = (teamId: number) =>
  t.deps.db
    .selectFrom('unsubscribes')
    .select(['email', 'email_id'])
    .where('team_id', '=', teamId)
    .orderBy('email')
    .execute();

/** The path of a link, for app.inject. */
const pathOf = (url: string) => new URL(url).pathname;
const contactLink = (teamId: number, contactId: string) =>
  pathOf(contactUnsubscribeUrl(t.deps.secrets, t.deps.config.publicUrl, { teamId, contactId }));
const oneClick = (path: string, headers: Record<string, string> = {}) =>
  t.app.inject({
    method: 'POST',
    url: path,
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    payload: 'List-Unsubscribe=One-Click',
  });

describe('unsubscribe tokens', () => {
  it('round-trip, live at HERALD_PUBLIC_URL/unsubscribe/{token} and are URL-safe', () => {
    const url = contactUnsubscribeUrl(t.deps.secrets, 'https://links.herald.test', { teamId: 7, contactId: 'ct_1' });
    expect(url).toMatch(/^https:\/\/links\.herald\.test\/unsubscribe\/[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    expect(readUnsubscribeToken(t.deps.secrets, url.split('/').pop()!)).toEqual({
      kind: 'contact',
      teamId: 7,
      contactId: 'ct_1',
    });

    const emailUrl = emailUnsubscribeUrl(t.deps.secrets, 'https://links.herald.test', {
      teamId: 7,
      emailId: 'em_1',
      recipient: ' Ann@Example.COM',
    });
    expect(readUnsubscribeToken(t.deps.secrets, emailUrl.split('/').pop()!)).toEqual({
      kind: 'email',
      teamId: 7,
      emailId: 'em_1',
      recipient: 'ann@example.com',
    });
  });

  it('refuses edited, forged, truncated and other-purpose tokens', () => {
    const token = contactUnsubscribeUrl(t.deps.secrets, '', { teamId: 7, contactId: 'ct_1' }).split('/').pop()!;
    const [payload, tag] = token.split('.') as [string, string];
    const edited = Buffer.from(JSON.stringify(['c', 8, 'ct_1'])).toString('base64url');
    const flip = (s: string) => s.slice(0, -1) + (s.endsWith('A') ? 'B' : 'A');
    for (const bad of [
      `${edited}.${tag}`,
      `${payload}.${flip(tag)}`,
      payload,
      `${payload}.`,
      `${payload}.${tag}.x`,
      '',
      'x'.repeat(2000),
    ]) {
      expect(readUnsubscribeToken(t.deps.secrets, bad), bad).toBeNull();
    }
    // Another HERALD_SECRET signed it.
    expect(
      readUnsubscribeToken(
        t.deps.secrets,
        contactUnsubscribeUrl(new Secrets('another-secret-0123456789abcdef'), '', { teamId: 7, contactId: 'ct_1' })
          .split('/')
          .pop()!,
      ),
    ).toBeNull();
    // Signed with the confirmation purpose: not an unsubscribe token.
    expect(
      readUnsubscribeToken(t.deps.secrets, signToken(t.deps.secrets, 'confirmation', ['c', 7, 'ct_1'])),
    ).toBeNull();
  });
});

describe('GET /unsubscribe/{token}', () => {
  it('shows a page with a form posting back and unsubscribes nobody', async () => {
    const bookId = await book(teamA.id);
    const contactId = await contact(teamA.id, bookId, 'scanner@example.com');
    const response = await t.app.inject({ method: 'GET', url: contactLink(teamA.id, contactId) });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/html/);
    expect(response.headers['referrer-policy']).toBe('no-referrer');
    expect(response.body).toContain('<form method="post">');
    expect(response.body).toContain('name="List-Unsubscribe" value="One-Click"');
    expect(await readContact(contactId)).toMatchObject({ subscribed: true, unsubscribed_at: null });
  });

  it('answers a forged token with a 404 page', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/unsubscribe/eyJhIjoxfQ.AAAAAAAAAAAAAAAAAAAAAA' });
    expect(response.statusCode).toBe(404);
    expect(response.headers['content-type']).toMatch(/^text\/html/);
    expect(response.body).toContain('Link not valid');
  });
});

describe('POST /unsubscribe/{token} with a contact link', () => {
  it('one-click: 200 plain text without a login; the contact is unsubscribed, idempotently', async () => {
    const bookId = await book(teamA.id);
    const contactId = await contact(teamA.id, bookId, 'oneclick@example.com');
    const first = await oneClick(contactLink(teamA.id, contactId));
    expect(first.statusCode).toBe(200);
    expect(first.headers['content-type']).toMatch(/^text\/plain/);
    const at = t.clock.now();
    expect(await readContact(contactId)).toMatchObject({ subscribed: false, unsubscribed_at: at });

    t.clock.advance(60_000);
    expect((await oneClick(contactLink(teamA.id, contactId))).statusCode).toBe(200);
    // Already unsubscribed: it keeps the time it first left.
    expect(await readContact(contactId)).toMatchObject({ subscribed: false, unsubscribed_at: at });
  });

  it('accepts an empty body and a multipart body', async () => {
    const bookId = await book(teamA.id);
    const empty = await contact(teamA.id, bookId, 'empty@example.com');
    expect((await t.app.inject({ method: 'POST', url: contactLink(teamA.id, empty) })).statusCode).toBe(200);
    expect((await readContact(empty)).subscribed).toBe(false);

    const multipart = await contact(teamA.id, bookId, 'multipart@example.com');
    const boundary = 'herald-boundary';
    const response = await t.app.inject({
      method: 'POST',
      url: contactLink(teamA.id, multipart),
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload: `--${boundary}\r\nContent-Disposition: form-data; name="List-Unsubscribe"\r\n\r\nOne-Click\r\n--${boundary}--\r\n`,
    });
    expect(response.statusCode).toBe(200);
    expect((await readContact(multipart)).subscribed).toBe(false);
  });

  it("the page's form gets the 'you are unsubscribed' page", async () => {
    const bookId = await book(teamA.id);
    const contactId = await contact(teamA.id, bookId, 'browser@example.com');
    const response = await oneClick(contactLink(teamA.id, contactId), {
      accept: 'text/html,application/xhtml+xml,*/*;q=0.8',
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/html/);
    expect(response.body).toContain('You are unsubscribed');
    expect((await readContact(contactId)).subscribed).toBe(false);
  });

  it('a forged or other-purpose token is a 404 page and changes nothing', async () => {
    const bookId = await book(teamA.id);
    const contactId = await contact(teamA.id, bookId, 'forged@example.com');
    const good = contactLink(teamA.id, contactId);
    const edited = good.slice(0, -2) + (good.endsWith('AA') ? 'BB' : 'AA');
    const confirm = pathOf(
      confirmationUrl(t.deps.secrets, t.deps.config.publicUrl, { teamId: teamA.id, contactId, sentAt: t.clock.now() }),
    ).replace('/confirm/', '/unsubscribe/');
    for (const url of [edited, confirm, '/unsubscribe/nonsense']) {
      const response = await oneClick(url);
      expect(response.statusCode, url).toBe(404);
    }
    expect(await readContact(contactId)).toMatchObject({ subscribed: true, unsubscribed_at: null });
  });

  it("leaves another team's contacts with the same address alone", async () => {
    const mine = await contact(teamA.id, await book(teamA.id), 'shared@example.com');
    const theirs = await contact(teamB.id, await book(teamB.id), 'shared@example.com');
    expect((await oneClick(contactLink(teamA.id, mine))).statusCode).toBe(200);
    expect((await readContact(mine)).subscribed).toBe(false);
    expect(await readContact(theirs)).toMatchObject({ subscribed: true, unsubscribed_at: null });
  });

  it('a contact deleted since the mail was sent: still 200, nothing to do', async () => {
    expect((await oneClick(contactLink(teamA.id, 'ct_gone'))).statusCode).toBe(200);
  });
});

describe('POST /unsubscribe/{token} with an email recipient link', () => {
  it("adds the address to the team's unsubscribes and unsubscribes every contact of the team with it", async () => {
    const team = await createTeam(t.app);
    const other = await createTeam(t.app);
    const [news, offers] = [await book(team.id), await book(team.id)];
    const inNews = await contact(team.id, news, 'reader@example.com');
    const inOffers = await contact(team.id, offers, 'reader@example.com');
    const someoneElse = await contact(team.id, news, 'other@example.com');
    const otherTeams = await contact(other.id, await book(other.id), 'reader@example.com');

    const url = emailUnsubscribeUrl(t.deps.secrets, t.deps.config.publicUrl, {
      teamId: team.id,
      emailId: 'em_123',
      recipient: 'Reader@Example.com',
    });
    const page = await t.app.inject({ method: 'GET', url: pathOf(url) });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('reader@example.com');
    expect(await unsubscribesOf(team.id)).toEqual([]);

    expect((await oneClick(pathOf(url))).statusCode).toBe(200);
    expect(await unsubscribesOf(team.id)).toEqual([{ email: 'reader@example.com', email_id: 'em_123' }]);
    expect(await readContact(inNews)).toMatchObject({ subscribed: false, unsubscribed_at: t.clock.now() });
    expect(await readContact(inOffers)).toMatchObject({ subscribed: false, unsubscribed_at: t.clock.now() });
    expect((await readContact(someoneElse)).subscribed).toBe(true);
    expect((await readContact(otherTeams)).subscribed).toBe(true);
    expect(await unsubscribesOf(other.id)).toEqual([]);

    // Again: no duplicate, no error; the first email's id stays.
    const again = emailUnsubscribeUrl(t.deps.secrets, t.deps.config.publicUrl, {
      teamId: team.id,
      emailId: 'em_456',
      recipient: 'reader@example.com',
    });
    expect((await oneClick(pathOf(again))).statusCode).toBe(200);
    expect(await unsubscribesOf(team.id)).toEqual([{ email: 'reader@example.com', email_id: 'em_123' }]);
  });

  it('works for an address that is no contact, and for a team deleted since (no-op)', async () => {
    const team = await createTeam(t.app);
    const url = emailUnsubscribeUrl(t.deps.secrets, t.deps.config.publicUrl, {
      teamId: team.id,
      emailId: 'em_1',
      recipient: 'stranger@example.com',
    });
    expect((await oneClick(pathOf(url))).statusCode).toBe(200);
    expect(await unsubscribesOf(team.id)).toEqual([{ email: 'stranger@example.com', email_id: 'em_1' }]);

    const gone = emailUnsubscribeUrl(t.deps.secrets, t.deps.config.publicUrl, {
      teamId: 2_000_000_000,
      emailId: 'em_1',
      recipient: 'a@example.com',
    });
    expect((await oneClick(pathOf(gone))).statusCode).toBe(200);
  });
});
