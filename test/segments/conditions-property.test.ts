// Segment conditions on a contact's properties against the shared book (conditions-book.ts): text
// operators ignoring case (beyond ASCII too), wildcard characters, and numeric comparison that skips
// values that are not numbers, without error.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/app.ts';
import type { TestTeam } from '../support/factory.ts';
import { NUMBER_LENGTH_MAX } from '../../src/segments/definition.ts';
import { definition, insertContact } from './helpers.ts';
import { startConditionsBook, type SegmentsClient, type ConditionsBook } from './conditions-book.ts';

let t: TestApp;
let team: TestTeam;
let api: SegmentsClient;
let book: string;
let one: ConditionsBook['one'];

beforeAll(async () => {
  ({ t, team, api, book, one } = await startConditionsBook());
});
afterAll(() => t.close());

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
