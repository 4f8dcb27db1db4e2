// The state new contacts are created in (create-contact-state.ts): in a double opt-in book not
// subscribed, not confirmed, the confirmation due now, the confirmation queue woken in the same
// transaction; elsewhere confirmed when created. Every creating path: single, PUT, bulk.
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QUEUE_CHANNEL } from '../../src/queue/index.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { createTeam, type TestTeam } from '../support/factory.ts';
import { contactsClient, type Book } from './helpers.ts';

let t: TestApp;
let team: TestTeam;
let api: ReturnType<typeof contactsClient>;

beforeAll(async () => {
  t = await createTestApp();
  team = await createTeam(t.app);
  api = contactsClient(t.app, team.key);
});
afterAll(() => t.close());

const stateOf = (id: string) =>
  t.deps.db
    .selectFrom('contacts')
    .select(['subscribed', 'confirmed_at', 'confirmation_due_at', 'created_at'])
    .where('team_id', '=', team.id)
    .where('id', '=', id)
    .executeTakeFirstOrThrow();

/** Runs `work` and returns the queue names announced on the queue channel meanwhile. */
async function announced(work: () => Promise<unknown>): Promise<string[]> {
  const names: string[] = [];
  const marker = `end of the work ${randomUUID()}`;
  const markerBack = Promise.withResolvers<void>();
  const unsubscribe = await t.deps.database.listen(QUEUE_CHANNEL, (payload) =>
    payload === marker ? markerBack.resolve() : names.push(payload),
  );
  try {
    await work();
    // PostgreSQL delivers notifications in commit order: once this one is back, every wake-up the
    // work committed has arrived.
    await sql`SELECT pg_notify(${QUEUE_CHANNEL}, ${marker})`.execute(t.deps.db);
    await markerBack.promise;
  } finally {
    await unsubscribe();
  }
  return names;
}

async function createdEveryWay(book: Book): Promise<string[]> {
  const single = await api.contact(book.id, { email: 'single@example.com', subscribed: true });
  const put = (await api.put(book.id, 'ct_missing', { email: 'put@example.com' })).json() as { contactId: string };
  expect((await api.bulkAdd(book.id, [{ email: 'bulk@example.com' }])).statusCode).toBe(200);
  const [bulk] = (await api.list(book.id, '?emails=bulk@example.com')).json() as { id: string }[];
  return [single, put.contactId, bulk!.id];
}

describe('contacts of a double opt-in book', () => {
  it('start unsubscribed and unconfirmed, with the confirmation due now, and wake the confirmation queue', async () => {
    t.clock.set('2026-05-01T12:00:00.000Z');
    const book = await api.book({ doubleOptInEnabled: true });
    let ids: string[] = [];
    const names = await announced(async () => {
      ids = await createdEveryWay(book);
    });
    for (const id of ids) {
      expect(await stateOf(id)).toEqual({
        subscribed: false,
        confirmed_at: null,
        confirmation_due_at: new Date('2026-05-01T12:00:00.000Z'),
        created_at: new Date('2026-05-01T12:00:00.000Z'),
      });
      expect((await api.read(book.id, id)).subscribed).toBe(false);
    }
    expect(names.filter((name) => name === 'contact-confirmation')).toHaveLength(3);
  });

  it("keeps an existing contact's confirmation state on update", async () => {
    const book = await api.book({ doubleOptInEnabled: true });
    const id = await api.contact(book.id, { email: 'keep@example.com' });
    const before = await stateOf(id);
    t.clock.advance(60_000);
    await api.bulkAdd(book.id, [{ email: 'keep@example.com', firstName: 'K' }]);
    await api.put(book.id, id, { email: 'keep@example.com', lastName: 'L' });
    expect(await stateOf(id)).toEqual(before);
  });
});

describe('contacts of other books', () => {
  it('are confirmed when created, subscribed as asked, and wake nothing', async () => {
    t.clock.set('2026-05-02T12:00:00.000Z');
    const book = await api.book({ doubleOptInEnabled: false });
    let ids: string[] = [];
    const names = await announced(async () => {
      ids = await createdEveryWay(book);
    });
    for (const id of ids) {
      const state = await stateOf(id);
      expect(state).toEqual({
        subscribed: true,
        confirmed_at: state.created_at,
        confirmation_due_at: null,
        created_at: new Date('2026-05-02T12:00:00.000Z'),
      });
    }
    expect(names).not.toContain('contact-confirmation');
    const unsubscribed = await api.contact(book.id, { email: 'no@example.com', subscribed: false });
    expect((await stateOf(unsubscribed)).subscribed).toBe(false);
  });
});
