// Each condition type and operator against contacts whose values make the operator's truth visible:
// case-insensitivity, wildcard escaping in contains/ends_with, numeric comparison that skips values
// that are not numbers, the double opt-in rule of `subscribed`, and match all/any with groups.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/platform/clock.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { createTeam, type TestTeam } from '../support/factory.ts';
import { NUMBER_LENGTH_MAX } from '../../src/segments/definition.ts';
import { definition, insertContact, segmentsClient } from './helpers.ts';

let t: TestApp;
let team: TestTeam;
let api: ReturnType<typeof segmentsClient>;
let book: string;

beforeAll(async () => {
  t = await createTestApp({ clock: new ManualClock('2026-01-15T12:00:00.000Z') });
  team = await createTeam(t.app);
  api = segmentsClient(t.app, team.key);
  book = await api.makeBook(['plan', 'score', 'note']);
  const db = t.deps.db;
  await insertContact(db, team.id, book, {
    email: 'ann@alpha.test',
    firstName: 'Ann',
    lastName: 'Lee',
    createdAt: '2026-01-01T10:00:00.000Z',
    properties: { plan: 'Pro', score: '10', note: '500 off' },
  });
  await insertContact(db, team.id, book, {
    email: 'bob@beta.test',
    firstName: 'BOB',
    lastName: null,
    createdAt: '2026-01-10T08:00:00.000Z',
    properties: { plan: 'free', score: '9.5', note: 'C:\\dir' },
  });
  await insertContact(db, team.id, book, {
    email: 'cat@alpha.test',
    firstName: null,
    lastName: '  ',
    subscribed: false,
    createdAt: '2026-01-14T11:00:00.000Z',
    properties: { plan: '', score: 'abc', note: 'plain' },
  });
  await insertContact(db, team.id, book, {
    email: 'dan_x@gamma.test',
    firstName: 'Dana',
    confirmedAt: null,
    createdAt: '2026-01-15T11:00:00.000Z',
    properties: { score: ' -3 ', note: '50% off' },
  });
  await insertContact(db, team.id, book, {
    email: 'eve@delta.test',
    firstName: '',
    lastName: 'Stone',
    createdAt: '2025-12-01T00:00:00.000Z',
    properties: { score: '1e2x' },
  });
  // Another book's contact never shows up.
  const other = await api.makeBook(['plan']);
  await insertContact(db, team.id, other, { email: 'ann@alpha.test', firstName: 'Ann', properties: { plan: 'Pro' } });
});
afterAll(() => t.close());

const one = (condition: Record<string, unknown>) => api.matches(book, definition([condition]));
const everyone = ['ann', 'bob', 'cat', 'dan_x', 'eve'];

describe('email', () => {
  it.each([
    ['equals', 'ANN@Alpha.TEST', ['ann']],
    ['not_equals', 'Ann@alpha.test', ['bob', 'cat', 'dan_x', 'eve']],
    ['contains', 'ALPHA', ['ann', 'cat']],
    ['ends_with', '@ALPHA.test', ['ann', 'cat']],
    ['contains', '_', ['dan_x']], // `_` is a character here, not "any character"
    ['ends_with', '%.test', []], // `%` is a character here, not "anything"
  ])('%s %j', async (op, value, expected) => {
    expect(await one({ type: 'email', op, value })).toEqual(expected);
  });
});

describe('first_name and last_name', () => {
  it.each([
    ['first_name', 'equals', 'bob', ['bob']],
    ['first_name', 'not_equals', 'ann', ['bob', 'cat', 'dan_x', 'eve']],
    ['first_name', 'contains', 'AN', ['ann', 'dan_x']],
    ['first_name', 'is_set', undefined, ['ann', 'bob', 'dan_x']],
    ['first_name', 'is_empty', undefined, ['cat', 'eve']],
    ['last_name', 'equals', 'LEE', ['ann']],
    ['last_name', 'not_equals', 'lee', ['bob', 'cat', 'dan_x', 'eve']],
    ['last_name', 'contains', 'ton', ['eve']],
    ['last_name', 'is_set', undefined, ['ann', 'eve']],
    ['last_name', 'is_empty', undefined, ['bob', 'cat', 'dan_x']], // blank counts as empty
  ])('%s %s %j', async (type, op, value, expected) => {
    expect(await one({ type, op, ...(value === undefined ? {} : { value }) })).toEqual(expected);
  });

  it('requires value for comparisons and refuses it for is_set/is_empty', async () => {
    expect(
      (await api.create(book, { name: 'x', definition: definition([{ type: 'first_name', op: 'equals' }]) }))
        .statusCode,
    ).toBe(400);
    expect(
      (
        await api.create(book, {
          name: 'x',
          definition: definition([{ type: 'first_name', op: 'is_set', value: 'a' }]),
        })
      ).statusCode,
    ).toBe(400);
  });
});

describe('subscribed', () => {
  it('is true only for subscribed, confirmed contacts; an unconfirmed double opt-in contact is not subscribed', async () => {
    expect(await one({ type: 'subscribed', op: 'is', value: true })).toEqual(['ann', 'bob', 'eve']);
    expect(await one({ type: 'subscribed', op: 'is', value: false })).toEqual(['cat', 'dan_x']);
  });
});

describe('added', () => {
  it.each([
    ['before', '2026-01-01', ['eve']],
    ['before', '2026-01-10T08:00:00.000Z', ['ann', 'eve']], // strictly before
    ['after', '2026-01-10T08:00:00.000Z', ['cat', 'dan_x']], // strictly after
    ['after', '2026-01-10', ['bob', 'cat', 'dan_x']],
    ['in_last_days', 1, ['dan_x']],
    ['in_last_days', 2, ['cat', 'dan_x']],
  ])('%s %j', async (op, value, expected) => {
    expect(await one({ type: 'added', op, value })).toEqual(expected);
  });

  it('in_last_days counts back from the clock', async () => {
    t.clock.set('2026-01-16T12:00:00.000Z');
    try {
      expect(await one({ type: 'added', op: 'in_last_days', value: 1 })).toEqual([]);
    } finally {
      t.clock.set('2026-01-15T12:00:00.000Z');
    }
  });

  it('refuses a date with in_last_days and a number with before/after', async () => {
    expect(
      (
        await api.create(book, {
          name: 'x',
          definition: definition([{ type: 'added', op: 'in_last_days', value: '2026-01-01' }]),
        })
      ).statusCode,
    ).toBe(400);
    expect(
      (await api.create(book, { name: 'x', definition: definition([{ type: 'added', op: 'before', value: 3 }]) }))
        .statusCode,
    ).toBe(400);
    expect(
      (
        await api.create(book, {
          name: 'x',
          definition: definition([{ type: 'added', op: 'after', value: 'yesterday' }]),
        })
      ).statusCode,
    ).toBe(400);
  });
});

describe('property', () => {
  it.each([
    ['plan', 'equals', 'PRO', ['ann']],
    ['plan', 'not_equals', 'pro', ['bob', 'cat', 'dan_x', 'eve']],
    ['plan', 'contains', 'R', ['ann', 'bob']],
    ['plan', 'is_set', undefined, ['ann', 'bob']],
    ['plan', 'is_empty', undefined, ['cat', 'dan_x', 'eve']],
    // Numbers compare as numbers ('10' > '9.5'); 'abc' and '1e2x' are skipped without error.
    ['score', 'gt', 9, ['ann', 'bob']],
    ['score', 'gte', 10, ['ann']],
    ['score', 'lt', 0, ['dan_x']],
    ['score', 'lte', '9.5', ['bob', 'dan_x']],
    ['score', 'gt', -100, ['ann', 'bob', 'dan_x']],
    // Wildcards and backslashes in contains are characters.
    ['note', 'contains', '50% off', ['dan_x']],
    ['note', 'contains', '\\', ['bob']],
    ['note', 'contains', '_', []],
  ])('%s %s %j', async (key, op, value, expected) => {
    expect(await one({ type: 'property', key, op, ...(value === undefined ? {} : { value }) })).toEqual(expected);
  });

  it('ignores the case of letters beyond ASCII', async () => {
    const cities = await api.makeBook(['city']);
    for (const [name, city] of [
      ['upper', 'ZÜRICH'],
      ['lower', 'zürich'],
      ['plain', 'Zurich'],
      ['longer', 'zürich '],
    ]) {
      await insertContact(t.deps.db, team.id, cities, { email: `${name}@cities.test`, properties: { city } });
    }
    expect(
      await api.matches(cities, definition([{ type: 'property', key: 'city', op: 'equals', value: 'Zürich' }])),
    ).toEqual(['lower', 'upper']);
    expect(
      await api.matches(cities, definition([{ type: 'property', key: 'city', op: 'not_equals', value: 'züRICH' }])),
    ).toEqual(['longer', 'plain']);
  });

  it('skips, without error, digits beyond the number length limit and blanks the cast would refuse', async () => {
    const numbers = await api.makeBook(['score']);
    const scores = {
      long: '9'.repeat(NUMBER_LENGTH_MAX + 1),
      edge: '9'.repeat(NUMBER_LENGTH_MAX),
      nbsp: '\u00a05',
      exp: '1e999',
      tab: '\t7\r\n',
    };
    for (const [name, score] of Object.entries(scores)) {
      await insertContact(t.deps.db, team.id, numbers, { email: `${name}@numbers.test`, properties: { score } });
    }
    expect(await api.matches(numbers, definition([{ type: 'property', key: 'score', op: 'gt', value: 1 }]))).toEqual([
      'edge',
      'exp',
      'tab',
    ]);
  });

  it('refuses a numeric operator with a value that is not a number', async () => {
    const response = await api.create(book, {
      name: 'x',
      definition: definition([{ type: 'property', key: 'score', op: 'gt', value: 'ten' }]),
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.message).toContain('value');
  });
});

describe('journey', () => {
  /** A journey of the team behind `key`, made through the journeys API. */
  async function makeJourney(key: string, bookId: string): Promise<string> {
    const response = await segmentsClient(t.app, key).call('POST', '/v1/journeys', {
      name: 'Onboarding',
      triggerType: 'API',
      contactBookId: bookId,
      steps: [{ id: 'w', type: 'WAIT', seconds: 60 }],
    });
    expect(response.statusCode, response.body).toBe(201);
    return (response.json() as { id: string }).id;
  }

  it('names a journey without runs (or deleted since): nobody is in it, has completed or exited it; no problem', async () => {
    const journeyId = await makeJourney(team.key, book);
    const segments = [];
    for (const op of ['is_in', 'completed', 'exited']) {
      const segment = await api.make(book, definition([{ type: 'journey', op, journeyId }]));
      expect(segment.count).toBe(0);
      expect(segment.problems).toEqual([]);
      segments.push(segment);
    }
    const notIn = await api.make(book, definition([{ type: 'journey', op: 'not_in', journeyId }]));
    expect(notIn.count).toBeGreaterThan(0);
    expect(notIn.problems).toEqual([]);

    expect((await api.call('DELETE', `/v1/journeys/${journeyId}`)).statusCode).toBe(200);
    const after = (await api.get(book, notIn.id)).json();
    expect(after.count).toBe(notIn.count);
    expect(after.problems).toEqual([]);
    // Sending the stored definition back (a rename) is not refused for the journey deleted since.
    const renamed = await api.patch(book, notIn.id, {
      name: `renamed ${notIn.id}`,
      definition: definition([{ type: 'journey', op: 'not_in', journeyId }]),
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
  });

  it("refuses (400) a journey the team does not have: made up, or another team's; at create and update", async () => {
    const other = await createTeam(t.app);
    const othersJourney = await makeJourney(other.key, await segmentsClient(t.app, other.key).makeBook());
    const ours = await api.make(book, definition([{ type: 'subscribed', op: 'is', value: true }]));
    for (const journeyId of ['jr_made_up', othersJourney]) {
      const grouped = definition([
        { type: 'subscribed', op: 'is', value: true },
        { type: 'group', match: 'any', conditions: [{ type: 'journey', op: 'is_in', journeyId }] },
      ]);
      for (const response of [
        await api.create(book, { name: `x ${journeyId}`, definition: grouped }),
        await api.patch(book, ours.id, { definition: grouped }),
      ]) {
        expect(response.statusCode, response.body).toBe(400);
        expect(response.json().error).toEqual({
          code: 'BAD_REQUEST',
          message: `definition: journey "${journeyId}" is not a journey of the team`,
        });
      }
    }
    expect((await api.get(book, ours.id)).json().definition.conditions).toHaveLength(1);
  });
});

describe('match and groups', () => {
  it('all needs every condition, any needs one', async () => {
    const conditions = [
      { type: 'email', op: 'contains', value: 'alpha' },
      { type: 'subscribed', op: 'is', value: true },
    ];
    expect(await api.matches(book, definition(conditions, 'all'))).toEqual(['ann']);
    expect(await api.matches(book, definition(conditions, 'any'))).toEqual(['ann', 'bob', 'cat', 'eve']);
  });

  it('a group is one condition with its own match', async () => {
    const group = (match: 'all' | 'any') => ({
      type: 'group',
      match,
      conditions: [
        { type: 'subscribed', op: 'is', value: false },
        { type: 'email', op: 'ends_with', value: 'gamma.test' },
      ],
    });
    const nameIsAnn = { type: 'first_name', op: 'equals', value: 'ann' };
    expect(await api.matches(book, definition([nameIsAnn, group('all')], 'any'))).toEqual(['ann', 'dan_x']);
    expect(await api.matches(book, definition([nameIsAnn, group('any')], 'any'))).toEqual(['ann', 'cat', 'dan_x']);
    expect(
      await api.matches(book, definition([{ type: 'added', op: 'in_last_days', value: 30 }, group('any')], 'all')),
    ).toEqual(['cat', 'dan_x']);
  });

  it('a missing value never turns "not" conditions into unknowns', async () => {
    const missingScore = { type: 'property', key: 'plan', op: 'not_equals', value: 'pro' };
    expect(
      await api.matches(book, definition([missingScore, { type: 'first_name', op: 'not_equals', value: 'dana' }])),
    ).toEqual(['bob', 'cat', 'eve']);
  });

  it('everyone of the book, and only of the book', async () => {
    expect(await one({ type: 'email', op: 'contains', value: '@' })).toEqual(everyone);
  });
});
