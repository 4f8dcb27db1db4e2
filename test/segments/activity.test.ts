// email_activity and email_problem read the events of emails this team sent to the contact's
// address (email_recipients): received = SENT or DELIVERED; in_last_days counts back from the clock.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/platform/clock.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { createTeam, type TestTeam } from '../support/factory.ts';
import { definition, insertEmail, segmentsClient } from './helpers.ts';

let t: TestApp;
let team: TestTeam;
let api: ReturnType<typeof segmentsClient>;
let book: string;

beforeAll(async () => {
  t = await createTestApp({ clock: new ManualClock('2026-02-01T12:00:00.000Z') });
  team = await createTeam(t.app);
  api = segmentsClient(t.app, team.key);
  book = await api.makeBook();
  const db = t.deps.db;
  for (const name of ['fresh', 'stale', 'queued', 'opener', 'clicker', 'bounced', 'complainer', 'quiet']) {
    await api.addContact(book, { email: `${name}@x.test` });
  }
  await insertEmail(db, team.id, 'fresh@x.test', [
    ['QUEUED', '2026-01-31T10:00:00.000Z'],
    ['DELIVERED', '2026-01-31T10:01:00.000Z'],
  ]);
  await insertEmail(db, team.id, 'stale@x.test', [['SENT', '2025-11-01T10:00:00.000Z']]);
  await insertEmail(db, team.id, 'queued@x.test', [['QUEUED', '2026-01-31T10:00:00.000Z']]);
  await insertEmail(db, team.id, 'opener@x.test', [
    ['SENT', '2026-01-20T10:00:00.000Z'],
    ['OPENED', '2026-01-25T10:00:00.000Z'],
  ]);
  await insertEmail(db, team.id, 'clicker@x.test', [
    ['DELIVERED', '2026-01-30T10:00:00.000Z'],
    ['OPENED', '2026-01-30T11:00:00.000Z'],
    ['CLICKED', '2026-01-30T11:01:00.000Z'],
  ]);
  await insertEmail(db, team.id, 'bounced@x.test', [['BOUNCED', '2026-01-02T10:00:00.000Z']]);
  await insertEmail(db, team.id, 'complainer@x.test', [
    ['DELIVERED', '2026-01-02T10:00:00.000Z'],
    ['COMPLAINED', '2026-01-03T10:00:00.000Z'],
  ]);
  // Another team's mail to 'quiet' never counts for this team.
  const other = await createTeam(t.app);
  await insertEmail(db, other.id, 'quiet@x.test', [
    ['DELIVERED', '2026-01-31T10:00:00.000Z'],
    ['OPENED', '2026-01-31T10:00:00.000Z'],
    ['BOUNCED', '2026-01-31T10:00:00.000Z'],
  ]);
});
afterAll(() => t.close());

const all = ['bounced', 'clicker', 'complainer', 'fresh', 'opener', 'queued', 'quiet', 'stale'];
const without = (...names: string[]) => all.filter((name) => !names.includes(name));
const one = (condition: Record<string, unknown>) => api.matches(book, definition([condition]));

describe('email_activity', () => {
  it.each([
    ['received', 'ever', undefined, ['clicker', 'complainer', 'fresh', 'opener', 'stale']],
    ['received', 'never', undefined, ['bounced', 'queued', 'quiet']],
    ['received', 'in_last_days', 7, ['clicker', 'fresh']],
    ['received', 'in_last_days', 30, ['clicker', 'fresh', 'opener']], // complainer's was 30 days and 2 hours ago
    ['received', 'in_last_days', 31, ['clicker', 'complainer', 'fresh', 'opener']],
    ['opened', 'ever', undefined, ['clicker', 'opener']],
    ['opened', 'never', undefined, without('clicker', 'opener')],
    ['opened', 'in_last_days', 3, ['clicker']],
    ['clicked', 'ever', undefined, ['clicker']],
    ['clicked', 'never', undefined, without('clicker')],
    ['clicked', 'in_last_days', 1, []],
  ])('%s %s %s', async (event, op, days, expected) => {
    expect(await one({ type: 'email_activity', event, op, ...(days === undefined ? {} : { days }) })).toEqual(expected);
  });

  it('in_last_days follows the clock', async () => {
    t.clock.set('2026-02-08T12:00:00.000Z');
    try {
      expect(await one({ type: 'email_activity', event: 'received', op: 'in_last_days', days: 7 })).toEqual([]);
    } finally {
      t.clock.set('2026-02-01T12:00:00.000Z');
    }
  });
});

describe('email_problem', () => {
  it.each([
    ['bounced', 'ever', ['bounced']],
    ['bounced', 'never', without('bounced')],
    ['complained', 'ever', ['complainer']],
    ['complained', 'never', without('complainer')],
  ])('%s %s', async (event, op, expected) => {
    expect(await one({ type: 'email_problem', event, op })).toEqual(expected);
  });
});

it('combines with other conditions in one query: engaged and never bounced', async () => {
  const engaged = {
    type: 'group',
    match: 'any',
    conditions: [
      { type: 'email_activity', event: 'opened', op: 'ever' },
      { type: 'email_activity', event: 'received', op: 'in_last_days', days: 7 },
    ],
  };
  expect(
    await api.matches(book, definition([engaged, { type: 'email_problem', event: 'complained', op: 'never' }])),
  ).toEqual(['clicker', 'fresh', 'opener']);
});
