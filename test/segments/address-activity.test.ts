// The per-address activity summary (0004_emails.sql) that segments' email_activity and email_problem
// conditions read: kept by a trigger on email_events whoever writes the event, latest time wins even
// when events arrive out of order, every recipient of an email moves, and the summary always equals
// what the events themselves say.
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { recordEmailEvent } from '../../src/emails/index.ts';
import { ManualClock } from '../../src/platform/clock.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { createTeam, type TestTeam } from '../support/factory.ts';
import { definition, insertEmail, segmentsClient } from './helpers.ts';

let t: TestApp;
let team: TestTeam;
let api: ReturnType<typeof segmentsClient>;
let book: string;

beforeAll(async () => {
  t = await createTestApp({ clock: new ManualClock('2026-03-01T12:00:00.000Z') });
  team = await createTeam(t.app);
  api = segmentsClient(t.app, team.key);
  book = await api.makeBook();
  for (const name of ['late', 'to', 'cc', 'recorded', 'nobody'])
    await api.addContact(book, { email: `${name}@y.test` });
});
afterAll(() => t.close());

const openedWithin = (days: number) =>
  api.matches(book, definition([{ type: 'email_activity', event: 'opened', op: 'in_last_days', days }]));

/** What the events say, computed from scratch: the summary must always equal it. */
async function rebuilt(teamId: number) {
  const result = await sql<Record<string, unknown>>`
    SELECT r.address,
           max(e.created_at) FILTER (WHERE e.status IN ('SENT', 'DELIVERED')) AS last_received_at,
           max(e.created_at) FILTER (WHERE e.status = 'OPENED') AS last_opened_at,
           max(e.created_at) FILTER (WHERE e.status = 'CLICKED') AS last_clicked_at,
           max(e.created_at) FILTER (WHERE e.status = 'BOUNCED') AS last_bounced_at,
           max(e.created_at) FILTER (WHERE e.status = 'COMPLAINED') AS last_complained_at
    FROM email_events e JOIN email_recipients r ON r.email_id = e.email_id AND r.team_id = e.team_id
    WHERE e.team_id = ${teamId} AND e.status IN ('SENT', 'DELIVERED', 'OPENED', 'CLICKED', 'BOUNCED', 'COMPLAINED')
    GROUP BY r.address ORDER BY r.address`.execute(t.deps.db);
  return result.rows;
}

async function summary(teamId: number) {
  return t.deps.db
    .selectFrom('address_activity')
    .select([
      'address',
      'last_received_at',
      'last_opened_at',
      'last_clicked_at',
      'last_bounced_at',
      'last_complained_at',
    ])
    .where('team_id', '=', teamId)
    .orderBy('address')
    .execute();
}

it('keeps the latest time when an older event arrives after a newer one', async () => {
  await insertEmail(t.deps.db, team.id, 'late@y.test', [
    ['DELIVERED', '2026-02-27T10:00:00.000Z'],
    ['OPENED', '2026-02-28T10:00:00.000Z'],
    ['OPENED', '2026-01-01T10:00:00.000Z'],
  ]);
  expect(await openedWithin(2)).toEqual(['late']);
});

it('moves every recipient of the email, and only events of the kinds it tracks create a row', async () => {
  const id = await insertEmail(t.deps.db, team.id, 'to@y.test', [['QUEUED', '2026-02-28T09:00:00.000Z']]);
  await t.deps.db
    .insertInto('email_recipients')
    .values({ team_id: team.id, address: 'cc@y.test', email_id: id })
    .execute();
  expect((await summary(team.id)).map((row) => row.address)).toEqual(['late@y.test']);
  await t.deps.db
    .insertInto('email_events')
    .values({
      team_id: team.id,
      email_id: id,
      status: 'OPENED',
      data: null,
      created_at: new Date('2026-02-28T12:00:00.000Z'),
    })
    .execute();
  expect(await openedWithin(2)).toEqual(['cc', 'late', 'to']);
});

it('follows an event recorded by recordEmailEvent (the entry point of later capabilities)', async () => {
  const id = await insertEmail(t.deps.db, team.id, 'recorded@y.test', [['DELIVERED', '2026-02-20T10:00:00.000Z']]);
  expect(await api.matches(book, definition([{ type: 'email_problem', event: 'bounced', op: 'ever' }]))).toEqual([]);
  const recorded = await recordEmailEvent(
    t.deps.db,
    team.id,
    id,
    'BOUNCED',
    { reason: 'test' },
    new Date('2026-02-21T10:00:00.000Z'),
  );
  expect(recorded.found).toBe(true);
  expect(await api.matches(book, definition([{ type: 'email_problem', event: 'bounced', op: 'ever' }]))).toEqual([
    'recorded',
  ]);
  expect(await api.matches(book, definition([{ type: 'email_activity', event: 'received', op: 'ever' }]))).toEqual([
    'late',
    'recorded',
  ]);
});

it('equals the summary rebuilt from the events, and holds nothing of another team', async () => {
  const other = await createTeam(t.app);
  await insertEmail(t.deps.db, other.id, 'nobody@y.test', [
    ['DELIVERED', '2026-02-28T10:00:00.000Z'],
    ['CLICKED', '2026-02-28T11:00:00.000Z'],
  ]);
  const ours = await summary(team.id);
  expect(ours.length).toBe(4);
  expect(ours.map((row) => ({ ...row }))).toEqual(await rebuilt(team.id));
  expect(await summary(other.id)).toEqual(await rebuilt(other.id));
  expect(await api.matches(book, definition([{ type: 'email_activity', event: 'clicked', op: 'ever' }]))).toEqual([]);
});
