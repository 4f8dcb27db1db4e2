// The book every conditions test file reads: five contacts whose values make each operator's truth
// visible (case, wildcard characters, numbers that are not numbers, blanks, an unconfirmed double
// opt-in contact), and another book's contact that must never show up. The app's clock stands at
// 2026-01-15T12:00:00Z.
import { ManualClock } from '../../src/platform/clock.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { createTeam, type TestTeam } from '../support/factory.ts';
import { definition, insertContact, segmentsClient } from './helpers.ts';

export type SegmentsClient = ReturnType<typeof segmentsClient>;

export interface ConditionsBook {
  t: TestApp;
  team: TestTeam;
  api: SegmentsClient;
  book: string;
  /** The contacts of the book one condition matches, by the local part of their address, sorted. */
  one(condition: Record<string, unknown>): Promise<string[]>;
}

export const everyone = ['ann', 'bob', 'cat', 'dan_x', 'eve'];

export async function startConditionsBook(): Promise<ConditionsBook> {
  const t = await createTestApp({ clock: new ManualClock('2026-01-15T12:00:00.000Z') });
  const team = await createTeam(t.app);
  const api = segmentsClient(t.app, team.key);
  const book = await api.makeBook(['plan', 'score', 'note']);
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
  return { t, team, api, book, one: (condition) => api.matches(book, definition([condition])) };
}
