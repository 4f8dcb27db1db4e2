// Segments CRUD through HTTP: shape, list order, limits at their edges, unique names, the access
// rule (FULL), tenant isolation, and problems when the book loses a variable a segment uses.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/platform/clock.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { bearer, createTeam, type TestTeam } from '../support/factory.ts';
import { definition, errorOf, segmentsClient, type Segment } from './helpers.ts';

let t: TestApp;
let team: TestTeam;
let api: ReturnType<typeof segmentsClient>;

const subscribedOnly = definition([{ type: 'subscribed', op: 'is', value: true }]);
const emailCondition = (n: number) => ({ type: 'email', op: 'contains', value: `x${n}` });

beforeAll(async () => {
  t = await createTestApp({ clock: new ManualClock('2026-03-01T09:00:00.000Z') });
  team = await createTeam(t.app);
  api = segmentsClient(t.app, team.key);
});
afterAll(() => t.close());

describe('create, read, list, update, delete', () => {
  it('creates a segment (201) with its live count and reads it back', async () => {
    const book = await api.makeBook();
    await api.addContact(book, { email: 'a@x.test' });
    await api.addContact(book, { email: 'b@x.test', subscribed: false });
    const response = await api.create(book, {
      name: 'Subscribers',
      description: 'Everyone who opted in',
      definition: subscribedOnly,
    });
    expect(response.statusCode).toBe(201);
    const created = response.json() as Segment;
    expect(created).toEqual({
      id: expect.stringMatching(/^sg_[0-9a-z]{26}$/),
      contactBookId: book,
      name: 'Subscribers',
      description: 'Everyone who opted in',
      definition: subscribedOnly,
      count: 1,
      problems: [],
      createdAt: '2026-03-01T09:00:00.000Z',
      updatedAt: '2026-03-01T09:00:00.000Z',
    });
    expect((await api.get(book, created.id)).json()).toEqual(created);

    // Live: a new matching contact is counted at the next read.
    await api.addContact(book, { email: 'c@x.test' });
    expect(((await api.get(book, created.id)).json() as Segment).count).toBe(2);
  });

  it('lists oldest first, each with count and problems', async () => {
    const book = await api.makeBook();
    await api.addContact(book, { email: 'a@x.test' });
    const first = await api.make(book, subscribedOnly, 'First');
    t.clock.advance(1000);
    const second = await api.make(book, definition([{ type: 'subscribed', op: 'is', value: false }]), 'Second');
    const list = await api.list(book);
    expect(list.statusCode).toBe(200);
    const { data } = list.json() as { data: Segment[] };
    expect(data.map((segment) => [segment.id, segment.count, segment.problems])).toEqual([
      [first.id, 1, []],
      [second.id, 0, []],
    ]);
  });

  it('updates only what is sent; renaming keeps the definition; description can be cleared', async () => {
    const book = await api.makeBook();
    const segment = await api.make(book, subscribedOnly, 'Before');
    t.clock.advance(60_000);
    const renamed = await api.patch(book, segment.id, { name: 'After', description: 'Now described' });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json()).toMatchObject({
      name: 'After',
      description: 'Now described',
      definition: subscribedOnly,
      updatedAt: new Date(t.clock.now()).toISOString(),
    });
    const redefined = await api.patch(book, segment.id, {
      definition: definition([emailCondition(1)], 'any'),
      description: null,
    });
    expect(redefined.json()).toMatchObject({
      name: 'After',
      description: null,
      definition: definition([emailCondition(1)], 'any'),
    });
    expect((await api.patch(book, segment.id, {})).json()).toMatchObject({ name: 'After' });
  });

  it('deletes: {id, deleted}, then 404', async () => {
    const book = await api.makeBook();
    const segment = await api.make(book, subscribedOnly);
    const response = await api.remove(book, segment.id);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ id: segment.id, deleted: true });
    expect((await api.get(book, segment.id)).statusCode).toBe(404);
    expect((await api.remove(book, segment.id)).statusCode).toBe(404);
  });

  it('a segment is reached only through its own book', async () => {
    const book = await api.makeBook();
    const otherBook = await api.makeBook();
    const segment = await api.make(book, subscribedOnly);
    expect((await api.get(otherBook, segment.id)).statusCode).toBe(404);
    expect((await api.patch(otherBook, segment.id, { name: 'x' })).statusCode).toBe(404);
    expect((await api.remove(otherBook, segment.id)).statusCode).toBe(404);
    expect((await api.list('cb_missing')).statusCode).toBe(404);
    expect((await api.create('cb_missing', { name: 'x', definition: subscribedOnly })).statusCode).toBe(404);
  });
});

describe('limits at their edges', () => {
  it('name: 80 characters accepted, 81 refused (create and update)', async () => {
    const book = await api.makeBook();
    expect((await api.create(book, { name: 'n'.repeat(80), definition: subscribedOnly })).statusCode).toBe(201);
    const refused = await api.create(book, { name: 'm'.repeat(81), definition: subscribedOnly });
    expect(refused.statusCode).toBe(400);
    expect(errorOf(refused)).toMatchObject({ code: 'BAD_REQUEST', message: expect.stringContaining('name') });
    const segment = await api.make(book, subscribedOnly);
    expect((await api.patch(book, segment.id, { name: 'p'.repeat(81) })).statusCode).toBe(400);
    expect((await api.patch(book, segment.id, { name: 'p'.repeat(80) })).statusCode).toBe(200);
  });

  it('description: 280 characters accepted, 281 refused (create and update)', async () => {
    const book = await api.makeBook();
    const accepted = await api.create(book, { name: 'd', description: 'd'.repeat(280), definition: subscribedOnly });
    expect(accepted.statusCode).toBe(201);
    const refused = await api.create(book, { name: 'e', description: 'd'.repeat(281), definition: subscribedOnly });
    expect(refused.statusCode).toBe(400);
    expect(errorOf(refused).message).toContain('description');
    expect((await api.patch(book, (accepted.json() as Segment).id, { description: 'd'.repeat(281) })).statusCode).toBe(
      400,
    );
  });

  it('20 conditions counting those in groups accepted, 21 refused naming the limit', async () => {
    const book = await api.makeBook();
    const twenty = [
      ...Array.from({ length: 15 }, (_, n) => emailCondition(n)),
      { type: 'group', match: 'any', conditions: Array.from({ length: 5 }, (_, n) => emailCondition(100 + n)) },
    ];
    expect((await api.create(book, { name: 'twenty', definition: definition(twenty) })).statusCode).toBe(201);
    const twentyOne = [...twenty, emailCondition(21)];
    const refused = await api.create(book, { name: 'twenty-one', definition: definition(twentyOne) });
    expect(refused.statusCode).toBe(400);
    expect(errorOf(refused).message).toMatch(/at most 20 conditions/);
    const inGroup = [
      ...Array.from({ length: 15 }, (_, n) => emailCondition(n)),
      { type: 'group', match: 'any', conditions: Array.from({ length: 6 }, (_, n) => emailCondition(100 + n)) },
    ];
    expect((await api.create(book, { name: 'in group', definition: definition(inGroup) })).statusCode).toBe(400);
    const flat21 = Array.from({ length: 21 }, (_, n) => emailCondition(n));
    expect((await api.create(book, { name: 'flat', definition: definition(flat21) })).statusCode).toBe(400);
  });

  it('a group inside a group is refused', async () => {
    const book = await api.makeBook();
    const nested = {
      type: 'group',
      match: 'all',
      conditions: [{ type: 'group', match: 'any', conditions: [emailCondition(1)] }],
    };
    const response = await api.create(book, { name: 'nested', definition: definition([nested]) });
    expect(response.statusCode).toBe(400);
    expect(errorOf(response).message).toContain('groups nest one level only');
  });

  it('other bad definitions: version, match, unknown type, empty conditions', async () => {
    const book = await api.makeBook();
    for (const bad of [
      { version: 2, match: 'all', conditions: [emailCondition(1)] },
      { version: 1, match: 'some', conditions: [emailCondition(1)] },
      { version: 1, match: 'all', conditions: [{ type: 'phone', op: 'equals', value: '1' }] },
      { version: 1, match: 'all', conditions: [] },
      { version: 1, match: 'all', conditions: [{ type: 'email', op: 'is_set' }] },
      { version: 1, match: 'all', conditions: [{ type: 'email_activity', event: 'opened', op: 'in_last_days' }] },
      { version: 1, match: 'all', conditions: [{ type: 'email_problem', event: 'opened', op: 'ever' }] },
    ]) {
      const response = await api.create(book, { name: 'bad', definition: bad });
      expect(response.statusCode, JSON.stringify(bad)).toBe(400);
      expect(errorOf(response).message).toContain('definition');
    }
  });

  it('100 segments per book; the 101st is refused', async () => {
    const book = await api.makeBook();
    for (let n = 0; n < 100; n++) await api.make(book, subscribedOnly, `s${n}`);
    const refused = await api.create(book, { name: 's100', definition: subscribedOnly });
    expect(refused.statusCode).toBe(400);
    expect(errorOf(refused).message).toContain('100');
    // Another book is not affected.
    expect((await api.create(await api.makeBook(), { name: 's100', definition: subscribedOnly })).statusCode).toBe(201);
  }, 120_000);

  it('a name used in the book is refused with 409 NOT_UNIQUE, on create and on rename', async () => {
    const book = await api.makeBook();
    await api.make(book, subscribedOnly, 'Taken');
    const other = await api.make(book, subscribedOnly, 'Free');
    const created = await api.create(book, { name: 'Taken', definition: subscribedOnly });
    expect(created.statusCode).toBe(409);
    expect(errorOf(created).code).toBe('NOT_UNIQUE');
    const renamed = await api.patch(book, other.id, { name: 'Taken' });
    expect(renamed.statusCode).toBe(409);
    expect(errorOf(renamed).code).toBe('NOT_UNIQUE');
    // Its own name is not a clash, and the same name in another book is fine.
    expect((await api.patch(book, other.id, { name: 'Free' })).statusCode).toBe(200);
    expect((await api.create(await api.makeBook(), { name: 'Taken', definition: subscribedOnly })).statusCode).toBe(
      201,
    );
  });
});

describe('property keys and problems', () => {
  it('refuses a property that is not a variable of the book, naming the key', async () => {
    const book = await api.makeBook(['plan']);
    const response = await api.create(book, {
      name: 'p',
      definition: definition([{ type: 'property', key: 'tier', op: 'is_set' }]),
    });
    expect(response.statusCode).toBe(400);
    expect(errorOf(response).message).toContain('"tier"');
    const segment = await api.make(book, definition([{ type: 'property', key: 'plan', op: 'is_set' }]));
    const update = await api.patch(book, segment.id, {
      definition: definition([
        { type: 'group', match: 'any', conditions: [{ type: 'property', key: 'tier', op: 'is_set' }] },
      ]),
    });
    expect(update.statusCode).toBe(400);
    expect(errorOf(update).message).toContain('"tier"');
  });

  it('a variable removed from the book: the segment stays, lists the problem, counts 0 and lists no contact', async () => {
    const book = await api.makeBook(['plan', 'city']);
    await api.addContact(book, { email: 'a@x.test', properties: { plan: 'pro' } });
    const segment = await api.make(book, definition([{ type: 'property', key: 'plan', op: 'equals', value: 'pro' }]));
    expect(segment.count).toBe(1);

    await api.setVariables(book, ['city']);
    const read = (await api.get(book, segment.id)).json() as Segment;
    expect(read.count).toBe(0);
    expect(read.problems).toEqual(['property "plan" is no longer a variable of the contact book']);
    expect(((await api.list(book)).json() as { data: Segment[] }).data[0]).toMatchObject({
      id: segment.id,
      count: 0,
      problems: read.problems,
    });
    expect((await api.contacts(book, segment.id)).json()).toEqual({ data: [], nextCursor: null, total: 0 });

    // Renaming is still allowed; putting the variable back heals it.
    expect((await api.patch(book, segment.id, { name: 'Renamed' })).statusCode).toBe(200);
    await api.setVariables(book, ['city', 'plan']);
    expect((await api.get(book, segment.id)).json()).toMatchObject({ count: 1, problems: [], name: 'Renamed' });
  });

  it('a campaign named by email_activity must be a campaign of the team (test/campaigns/segment-condition.test.ts)', async () => {
    const book = await api.makeBook();
    const response = await api.create(book, {
      name: 'Opened it',
      definition: definition([{ type: 'email_activity', event: 'opened', op: 'ever', campaignId: 'cmp_1' }]),
    });
    expect(response.statusCode).toBe(400);
    expect(errorOf(response).message).toBe('definition: campaign "cmp_1" is not a campaign of the team');
  });
});

describe('access and tenancy', () => {
  it("another team's book and segment answer 404", async () => {
    const book = await api.makeBook();
    const segment = await api.make(book, subscribedOnly);
    const stranger = segmentsClient(t.app, (await createTeam(t.app)).key);
    expect((await stranger.list(book)).statusCode).toBe(404);
    expect((await stranger.create(book, { name: 'mine', definition: subscribedOnly })).statusCode).toBe(404);
    expect((await stranger.get(book, segment.id)).statusCode).toBe(404);
    expect((await stranger.patch(book, segment.id, { name: 'mine' })).statusCode).toBe(404);
    expect((await stranger.remove(book, segment.id)).statusCode).toBe(404);
    const contacts = await stranger.contacts(book, segment.id);
    expect(contacts.statusCode).toBe(404);
    expect(errorOf(contacts).code).toBe('NOT_FOUND');
    expect((await api.get(book, segment.id)).statusCode).toBe(200);
  });

  it('needs a full access key', async () => {
    const book = await api.makeBook();
    for (const kind of ['sending', 'readonly'] as const) {
      const { key } = await team.makeKey(kind);
      const response = await t.app.inject({
        method: 'GET',
        url: `/api/v1/contactBooks/${book}/segments`,
        headers: bearer(key),
      });
      expect(response.statusCode).toBe(403);
      expect(errorOf(response).code).toBe('SCOPE_DENIED');
    }
    expect((await t.app.inject({ method: 'GET', url: `/api/v1/contactBooks/${book}/segments` })).statusCode).toBe(401);
  });
});
