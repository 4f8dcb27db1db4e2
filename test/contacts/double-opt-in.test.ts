// Double opt-in through the real queue and HTTP: the contact-confirmation job sends exactly one email
// (stored by the email capability, rendered from the book's editor document), the signed link's GET
// page changes nothing, its POST confirms; links expire 7 days after sending; tenancy holds.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONFIRMATION_VALID_MS, confirmationUrl } from '../../src/contacts/confirmation-links.ts';
import { contactConfirmationQueue } from '../../src/contacts/double-opt-in-queue.ts';
import { newId } from '../../src/platform/ids.ts';
import { QueueRunner } from '../../src/queue/index.ts';
import { createDomain } from '../domains/support.ts';
import { startEmailHarness, type EmailHarness, type SendingTeam } from '../emails/support.ts';

let harness: EmailHarness;
let runner: QueueRunner;
let team: SendingTeam;
let other: SendingTeam;

const CONTENT = JSON.stringify({
  version: 1,
  blocks: [
    { type: 'heading', level: 1, text: 'Welcome {{firstName}} {{lastName}}' },
    {
      type: 'paragraph',
      content: ['Confirm {{email}} (plan {{plan}}): ', { text: 'yes please', href: '{{confirmUrl}}' }],
    },
    { type: 'link', text: 'Not me', href: '{{unsubscribeUrl}}' },
  ],
});

beforeAll(async () => {
  harness = await startEmailHarness();
  [team, other] = [await harness.team(), await harness.team()];
  runner = new QueueRunner({
    database: harness.t.deps.database,
    queues: [
      contactConfirmationQueue({
        secrets: harness.t.deps.secrets,
        publicUrl: harness.t.deps.config.publicUrl,
      }),
    ],
    clock: harness.t.clock,
    pollMs: 50,
  });
  await runner.start();
}, 60_000);
afterAll(async () => {
  await runner.stop();
  await harness.close();
});

const db = () => harness.t.deps.db;
const now = () => harness.t.clock.now();

async function book(
  teamId: number,
  from: string | null,
  options: { subject?: string | null; content?: string | null } = {},
): Promise<string> {
  const id = newId('cb_');
  await db()
    .insertInto('contact_books')
    .values({
      id,
      team_id: teamId,
      name: 'Letters',
      emoji: '📨',
      double_opt_in_enabled: true,
      double_opt_in_from: from,
      double_opt_in_subject: options.subject === undefined ? 'Confirm, {{firstName}}' : options.subject,
      double_opt_in_content: options.content === undefined ? CONTENT : options.content,
      created_at: now(),
      updated_at: now(),
    })
    .execute();
  return id;
}

/** A new contact of a double opt-in book, as the contacts API stores it; the worker is woken. */
async function pendingContact(teamId: number, bookId: string, email: string): Promise<string> {
  const id = newId('ct_');
  await db()
    .insertInto('contacts')
    .values({
      id,
      team_id: teamId,
      contact_book_id: bookId,
      email,
      first_name: 'Ada',
      last_name: 'Lovelace',
      properties: JSON.stringify({ plan: 'gold' }),
      subscribed: false,
      confirmation_due_at: now(),
      created_at: now(),
      updated_at: now(),
    })
    .execute();
  runner.wake();
  return id;
}

const readContact = (id: string) =>
  db()
    .selectFrom('contacts')
    .select(['subscribed', 'confirmed_at', 'confirmation_due_at', 'confirmation_sent_at', 'unsubscribed_at'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();

const emailsTo = (teamId: number, address: string) =>
  db()
    .selectFrom('emails')
    .select(['id', 'from', 'subject', 'html', 'status'])
    .where('team_id', '=', teamId)
    .where('to', '=', JSON.stringify(address))
    .execute();

/** Waits for the worker to finish with the contact (nothing due any more). */
async function processed(contactId: string) {
  await expect
    .poll(async () => (await readContact(contactId)).confirmation_due_at, { timeout: 10_000, interval: 50 })
    .toBeNull();
  return readContact(contactId);
}

async function confirmPath(teamId: number, address: string): Promise<string> {
  const [email] = await emailsTo(teamId, address);
  const match = /href="https?:\/\/[^/"]+(\/confirm\/[A-Za-z0-9_.-]+)"/.exec(email!.html ?? '');
  expect(match, email!.html ?? '').not.toBeNull();
  return match![1]!;
}

const inject = (method: 'GET' | 'POST', url: string) =>
  harness.app.inject({
    method,
    url,
    headers: { accept: 'text/html' },
    ...(method === 'POST'
      ? { headers: { accept: 'text/html', 'content-type': 'application/x-www-form-urlencoded' }, payload: '' }
      : {}),
  });

describe('contact-confirmation queue', () => {
  it('sends exactly one email, rendered from the book, through the email capability', async () => {
    const contactId = await pendingContact(
      team.id,
      await book(team.id, `Letters <${team.from('letters')}>`),
      'ada@example.com',
    );
    const contact = await processed(contactId);
    expect(contact.confirmation_sent_at).toEqual(now());
    expect(contact).toMatchObject({ subscribed: false, confirmed_at: null });

    // The queue runs again until nothing is due: still one.
    await runner.idle();
    const sent = await emailsTo(team.id, 'ada@example.com');
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({
      subject: 'Confirm, Ada',
      status: 'QUEUED',
      from: `Letters <${team.from('letters')}>`,
    });
    expect(sent[0]!.html).toContain('Welcome Ada Lovelace');
    expect(sent[0]!.html).toContain('Confirm ada@example.com (plan gold)');
    expect(sent[0]!.html).toMatch(/href="http:\/\/[^"]+\/confirm\/[A-Za-z0-9_.-]+"/);
    expect(sent[0]!.html).toMatch(/href="http:\/\/[^"]+\/unsubscribe\/[A-Za-z0-9_.-]+"/);
  });

  it('uses a default subject and document, and adds a confirm button to a document without one', async () => {
    const bare = await pendingContact(
      team.id,
      await book(team.id, team.from(), { subject: null, content: null }),
      'bare@example.com',
    );
    await processed(bare);
    const [email] = await emailsTo(team.id, 'bare@example.com');
    expect(email!.subject).toBe('Please confirm your subscription');
    expect(await confirmPath(team.id, 'bare@example.com')).toMatch(/^\/confirm\//);

    const noLink = JSON.stringify({ version: 1, blocks: [{ type: 'paragraph', content: ['Hello'] }] });
    await processed(
      await pendingContact(team.id, await book(team.id, team.from(), { content: noLink }), 'nolink@example.com'),
    );
    expect(await confirmPath(team.id, 'nolink@example.com')).toMatch(/^\/confirm\//);
  });

  it('drops the job when the from address is not on a verified domain; no email', async () => {
    const unverified = await createDomain(harness.app, team.key);
    const contactId = await pendingContact(
      team.id,
      await book(team.id, `hi@${unverified.name}`),
      'unverified@example.com',
    );
    const contact = await processed(contactId);
    expect(contact).toMatchObject({ confirmation_sent_at: null, confirmed_at: null, subscribed: false });
    expect(await emailsTo(team.id, 'unverified@example.com')).toHaveLength(0);
  });
});

describe('GET and POST /confirm/{token}', () => {
  it('GET shows a confirm button and changes nothing; POST confirms; again is an idempotent success', async () => {
    const contactId = await pendingContact(team.id, await book(team.id, team.from()), 'grace@example.com');
    const theirs = await pendingContact(other.id, await book(other.id, other.from()), 'grace@example.com');
    await processed(contactId);
    await processed(theirs);
    const path = await confirmPath(team.id, 'grace@example.com');

    const page = await inject('GET', path);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<form method="post">');
    expect((await readContact(contactId)).confirmed_at).toBeNull();

    harness.t.clock.advance(CONFIRMATION_VALID_MS - 60_000);
    const confirmed = await inject('POST', path);
    expect(confirmed.statusCode).toBe(200);
    expect(confirmed.body).toContain('Subscription confirmed');
    expect(await readContact(contactId)).toMatchObject({ subscribed: true, confirmed_at: now() });
    // Another team's contact with the same address is untouched.
    expect(await readContact(theirs)).toMatchObject({ subscribed: false, confirmed_at: null });

    const confirmedAt = now();
    harness.t.clock.advance(1000);
    expect((await inject('POST', path)).statusCode).toBe(200);
    expect((await inject('GET', path)).body).toContain('Subscription confirmed');
    expect((await readContact(contactId)).confirmed_at).toEqual(confirmedAt);
  });

  it('an expired link (7 days after sending) shows a clear page and changes nothing', async () => {
    const contactId = await pendingContact(team.id, await book(team.id, team.from()), 'late@example.com');
    await processed(contactId);
    const path = await confirmPath(team.id, 'late@example.com');
    harness.t.clock.advance(CONFIRMATION_VALID_MS + 1000);
    for (const method of ['GET', 'POST'] as const) {
      const response = await inject(method, path);
      expect(response.statusCode).toBe(410);
      expect(response.body).toContain('expired');
    }
    expect(await readContact(contactId)).toMatchObject({ subscribed: false, confirmed_at: null });
  });

  it('a forged or edited token is a 404 page and changes nothing', async () => {
    const contactId = await pendingContact(team.id, await book(team.id, team.from()), 'forged@example.com');
    await processed(contactId);
    const path = await confirmPath(team.id, 'forged@example.com');
    const [payload, tag] = path.slice('/confirm/'.length).split('.') as [string, string];
    const [teamId, id, expires] = JSON.parse(Buffer.from(payload, 'base64url').toString()) as [number, string, number];
    const later = Buffer.from(JSON.stringify([teamId, id, expires + 86_400 * 365])).toString('base64url');
    const theirs = Buffer.from(JSON.stringify([other.id, id, expires])).toString('base64url');
    // An unsubscribe-purpose token naming the contact is no confirmation token either.
    const wrongPurpose = new URL(
      confirmationUrl(harness.t.deps.secrets, 'http://x', { teamId, contactId: id, sentAt: now() }),
    ).pathname;
    for (const bad of [
      `/confirm/${later}.${tag}`,
      `/confirm/${theirs}.${tag}`,
      `/confirm/${payload}.AAAA${tag.slice(4)}`,
      '/confirm/nonsense',
    ]) {
      for (const method of ['GET', 'POST'] as const) {
        const response = await inject(method, bad);
        expect(response.statusCode, `${method} ${bad}`).toBe(404);
      }
    }
    expect((await inject('POST', wrongPurpose.replace('/confirm/', '/unsubscribe/'))).statusCode).toBe(404);
    expect(await readContact(contactId)).toMatchObject({
      subscribed: false,
      confirmed_at: null,
      unsubscribed_at: null,
    });
  });
});
