// POST /v1/contactBooks/{id}/segments/preview through HTTP: the count and first 20 contacts of an
// unsaved definition equal the matches worked out from the seed and a saved segment's view; nothing
// is stored; a bad definition answers the create's 400 naming the field; segmentId checks as that
// segment's update would; another team's book 404; FULL access and the per-team rate limit.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/platform/clock.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { bearer, createTeam, type TestTeam } from '../support/factory.ts';
import { definition, errorOf, segmentsClient, type SegmentContact } from './helpers.ts';

let t: TestApp;
let team: TestTeam;
let api: ReturnType<typeof segmentsClient>;
let book: string;

interface Preview {
  count: number;
  problems: string[];
  contacts: SegmentContact[];
}

/** p1 … p25: every fourth unsubscribed, every third on plan pro, score its number. */
const seed = Array.from({ length: 25 }, (_, i) => ({
  email: `p${i + 1}@x.test`,
  subscribed: (i + 1) % 4 !== 0,
  properties: { plan: (i + 1) % 3 === 0 ? 'pro' : 'free', score: String(i + 1) },
}));
type Seed = (typeof seed)[number];
const score = (c: Seed) => Number(c.properties.score);

const preview = (bookId: string, body: unknown, key = team.key) =>
  t.app.inject({
    method: 'POST',
    url: `/api/v1/contactBooks/${bookId}/segments/preview`,
    headers: bearer(key),
    payload: body as object,
  });

beforeAll(async () => {
  t = await createTestApp({ clock: new ManualClock('2026-03-01T09:00:00.000Z') });
  team = await createTeam(t.app);
  api = segmentsClient(t.app, team.key);
  book = await api.makeBook(['plan', 'score']);
  const added = await api.call('POST', `/v1/contactBooks/${book}/contacts/bulk`, seed);
  expect(added.statusCode, added.body).toBe(200);
});
afterAll(() => t.close());

const cases: [string, ReturnType<typeof definition>, (c: Seed) => boolean][] = [
  ['subscribed', definition([{ type: 'subscribed', op: 'is', value: true }]), (c) => c.subscribed],
  [
    'a property, ignoring case',
    definition([{ type: 'property', key: 'plan', op: 'equals', value: 'PRO' }]),
    (c) => c.properties.plan === 'pro',
  ],
  [
    'any of a number and an address',
    definition(
      [
        { type: 'property', key: 'score', op: 'gt', value: 20 },
        { type: 'email', op: 'equals', value: 'p1@x.test' },
      ],
      'any',
    ),
    (c) => score(c) > 20 || c.email === 'p1@x.test',
  ],
  [
    'a group inside all',
    definition([
      { type: 'subscribed', op: 'is', value: true },
      {
        type: 'group',
        match: 'any',
        conditions: [
          { type: 'property', key: 'plan', op: 'equals', value: 'pro' },
          { type: 'property', key: 'score', op: 'lte', value: 2 },
        ],
      },
    ]),
    (c) => c.subscribed && (c.properties.plan === 'pro' || score(c) <= 2),
  ],
];

describe('the count and first contacts of an unsaved definition', () => {
  it.each(cases)('%s: count equals the matching contacts, and contacts are they', async (_, def, matches) => {
    const expected = seed.filter(matches).map((c) => c.email);
    const response = await preview(book, { definition: def });
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json() as Preview;
    expect(body.count).toBe(expected.length);
    expect(body.problems).toEqual([]);
    expect(body.contacts.map((c) => c.email).sort()).toEqual(expected.slice(0, 20).sort());
  });

  it('stores nothing', async () => {
    const before = (await api.list(book)).json() as { data: unknown[] };
    for (const [, def] of cases) expect((await preview(book, { definition: def })).statusCode).toBe(200);
    expect((await api.list(book)).json()).toEqual(before);
    expect(before.data).toEqual([]);
  });

  it('answers the first 20 contacts in the view of a saved segment’s contacts', async () => {
    const def = definition([{ type: 'email', op: 'ends_with', value: '@x.test' }]);
    const body = (await preview(book, { definition: def })).json() as Preview;
    expect(body.count).toBe(25);
    expect(body.contacts).toHaveLength(20);
    const saved = await api.make(book, def);
    const page = (await api.contacts(book, saved.id, '?limit=20')).json() as { data: SegmentContact[] };
    expect(body.contacts).toEqual(page.data);
    expect(body.contacts[0]).toEqual({
      id: expect.stringMatching(/^ct_/),
      email: expect.stringMatching(/@x\.test$/),
      firstName: null,
      lastName: null,
      subscribed: expect.any(Boolean),
      properties: { plan: expect.any(String), score: expect.any(String) },
      createdAt: '2026-03-01T09:00:00.000Z',
      updatedAt: '2026-03-01T09:00:00.000Z',
    });
    expect(body.count).toBe(saved.count);
    await api.remove(book, saved.id);
  });
});

describe('a definition the create would refuse', () => {
  const bad: [string, unknown, string][] = [
    [
      'a non-number with gt',
      definition([
        { type: 'subscribed', op: 'is', value: true },
        { type: 'property', key: 'plan', op: 'gt', value: 'many' },
      ]),
      'definition.conditions.1.value',
    ],
    [
      'a key that is not a variable',
      definition([{ type: 'property', key: 'city', op: 'equals', value: 'Oslo' }]),
      'definition: property "city" is not a variable of the contact book (variables: plan, score)',
    ],
    [
      'a campaign the team does not have',
      definition([{ type: 'email_activity', event: 'opened', op: 'ever', campaignId: 'cmp_1' }]),
      'definition: campaign "cmp_1" is not a campaign of the team',
    ],
    ['no condition', definition([]), 'definition.conditions'],
  ];

  it.each(bad)('%s: 400 naming the field, as the create answers', async (_, def, named) => {
    const response = await preview(book, { definition: def });
    expect(response.statusCode).toBe(400);
    const error = errorOf(response);
    expect(error.message).toContain(named);
    const created = await api.create(book, { name: 'Refused', definition: def });
    expect(created.statusCode).toBe(400);
    expect(errorOf(created)).toEqual(error);
  });

  it('checks a journey as the segment’s update would with segmentId: one deleted since is no problem', async () => {
    const made = await api.call('POST', '/v1/journeys', {
      name: 'Onboarding',
      triggerType: 'API',
      contactBookId: book,
      steps: [{ id: 'w', type: 'WAIT', seconds: 60 }],
    });
    expect(made.statusCode, made.body).toBe(201);
    const journeyId = (made.json() as { id: string }).id;
    const def = definition([{ type: 'journey', op: 'not_in', journeyId }]);
    const segment = await api.make(book, def);
    expect((await api.call('DELETE', `/v1/journeys/${journeyId}`)).statusCode).toBe(200);

    const asCreate = await preview(book, { definition: def });
    expect(asCreate.statusCode).toBe(400);
    expect(errorOf(asCreate).message).toBe(`definition: journey "${journeyId}" is not a journey of the team`);
    const asUpdate = await preview(book, { definition: def, segmentId: segment.id });
    expect(asUpdate.statusCode, asUpdate.body).toBe(200);
    expect((asUpdate.json() as Preview).count).toBe(25);
    expect((await api.patch(book, segment.id, { definition: def })).statusCode).toBe(200);

    const unknown = await preview(book, { definition: def, segmentId: 'sg_unknown' });
    expect(unknown.statusCode).toBe(404);
    await api.remove(book, segment.id);
  });
});

describe('access and tenancy', () => {
  const def = definition([{ type: 'subscribed', op: 'is', value: true }]);

  it("another team's book, or a segment of another book, answers 404", async () => {
    const stranger = await createTeam(t.app);
    const response = await preview(book, { definition: def }, stranger.key);
    expect(response.statusCode).toBe(404);
    expect((await preview('cb_unknown', { definition: def })).statusCode).toBe(404);
    const theirs = segmentsClient(t.app, stranger.key);
    const theirBook = await theirs.makeBook();
    const theirSegment = await theirs.make(theirBook, def);
    expect((await preview(book, { definition: def, segmentId: theirSegment.id })).statusCode).toBe(404);
    const otherBook = await api.makeBook();
    const otherSegment = await api.make(otherBook, def);
    expect((await preview(book, { definition: def, segmentId: otherSegment.id })).statusCode).toBe(404);
  });

  it('needs a full access key, as creating a segment does', async () => {
    for (const kind of ['sending', 'readonly'] as const) {
      const { key } = await team.makeKey(kind);
      const response = await preview(book, { definition: def }, key);
      expect(response.statusCode).toBe(403);
      expect(errorOf(response).code).toBe('SCOPE_DENIED');
    }
    const anonymous = await t.app.inject({
      method: 'POST',
      url: `/api/v1/contactBooks/${book}/segments/preview`,
      payload: { definition: def },
    });
    expect(anonymous.statusCode).toBe(401);
  });

  it("counts against the team's per-second API limit", async () => {
    const limited = await createTeam(t.app, { apiRateLimit: 2 });
    const client = segmentsClient(t.app, limited.key);
    t.clock.advance(1000);
    const limitedBook = await client.makeBook();
    expect((await preview(limitedBook, { definition: def }, limited.key)).statusCode).toBe(200);
    const refused = await preview(limitedBook, { definition: def }, limited.key);
    expect(refused.statusCode).toBe(429);
    expect(errorOf(refused).code).toBe('RATE_LIMITED');
    t.clock.advance(1000);
    expect((await preview(limitedBook, { definition: def }, limited.key)).statusCode).toBe(200);
  });
});
