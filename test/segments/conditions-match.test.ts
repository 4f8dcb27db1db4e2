// Match all/any and groups of conditions against the shared book (conditions-book.ts), the "not"
// conditions on missing values, and a segment of everyone in the book, and only of the book.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/app.ts';
import { definition } from './helpers.ts';
import { everyone, startConditionsBook, type SegmentsClient, type ConditionsBook } from './conditions-book.ts';

let t: TestApp;
let api: SegmentsClient;
let book: string;
let one: ConditionsBook['one'];

beforeAll(async () => {
  ({ t, api, book, one } = await startConditionsBook());
});
afterAll(() => t.close());

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
