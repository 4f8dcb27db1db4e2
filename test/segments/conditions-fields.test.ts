// Segment conditions on a contact's own fields against the shared book (conditions-book.ts): email
// (case-insensitive, `_` and `%` as characters), first and last name (blank counts as empty),
// subscribed (the double opt-in rule) and added (before, after, in the last days by the clock).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/app.ts';
import { definition } from './helpers.ts';
import { startConditionsBook, type SegmentsClient, type ConditionsBook } from './conditions-book.ts';

let t: TestApp;
let api: SegmentsClient;
let book: string;
let one: ConditionsBook['one'];

beforeAll(async () => {
  ({ t, api, book, one } = await startConditionsBook());
});
afterAll(() => t.close());

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
