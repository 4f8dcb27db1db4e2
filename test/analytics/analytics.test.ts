// Analytics through HTTP: emails sent through the API, their later events written as real
// email_events rows (recordEmailEvent, or one multi-row statement as delivery writes them) so the
// trigger of 0010_analytics.sql counts them, on days that cross a month boundary.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backfillDailyStats } from '../../src/analytics/daily-stats-backfill-queries.ts';
import { recordEmailEvent } from '../../src/emails/email-events.ts';
import type { EmailStatus } from '../../src/db/schema.ts';
import { emails, startEmailHarness, type EmailHarness, type SendingTeam } from '../emails/support.ts';
import type { DomainJson } from '../domains/support.ts';
import { bearer } from '../support/factory.ts';

let h: EmailHarness;
let team: SendingTeam;
let second: DomainJson;
let other: SendingTeam;
const ids: Record<'a' | 'b' | 'c', string> = { a: '', b: '', c: '' };

const at = (iso: string) => new Date(iso);

async function event(id: string, status: EmailStatus, when: string): Promise<void> {
  const recorded = await recordEmailEvent(h.t.deps.db, team.id, id, status, null, at(when));
  expect(recorded.found).toBe(true);
}

function get(url: string, key = team.key) {
  return h.app.inject({ method: 'GET', url: `/api/v1/analytics/${url}`, headers: bearer(key) });
}

interface Day {
  date: string;
  sent: number;
  delivered: number;
  opened: number;
  clicked: number;
  bounced: number;
  complained: number;
}

async function series(query: string, key = team.key): Promise<{ result: Day[]; totalCounts: Omit<Day, 'date'> }> {
  const response = await get(`email-time-series${query}`, key);
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

const zero = { sent: 0, delivered: 0, opened: 0, clicked: 0, bounced: 0, complained: 0 };
const day = (date: string, counts: Partial<Omit<Day, 'date'>> = {}): Day => ({ date, ...zero, ...counts });

beforeAll(async () => {
  h = await startEmailHarness();
  team = await h.team({ plan: 'pro' });
  second = await team.addDomain();
  other = await h.team({ plan: 'pro' });
  // Jan 30, 2027 (UTC): three emails, a and c from the first domain, b from the second.
  h.t.clock.set('2027-01-30T10:00:00.000Z');
  const send = emails(h.app, team.key);
  ids.a = await send.sent({ from: team.from(), to: 'a@example.test', subject: 'a', text: 'a' });
  ids.b = await send.sent({ from: `hi@${second.name}`, to: 'b@example.test', subject: 'b', text: 'b' });
  ids.c = await send.sent({ from: team.from(), to: ['c1@example.test', 'c2@example.test'], subject: 'c', text: 'c' });
  // The other team's mail must never show in this team's figures.
  const otherId = await emails(h.app, other.key).sent({
    from: other.from(),
    to: 'x@example.test',
    subject: 'x',
    text: 'x',
  });
  await recordEmailEvent(h.t.deps.db, other.id, otherId, 'DELIVERED', null, at('2027-01-31T09:00:00.000Z'));

  await event(ids.a, 'SENT', '2027-01-30T10:01:00.000Z'); // relay: handed off
  await event(ids.b, 'DELIVERED', '2027-01-30T23:59:59.999Z'); // direct: DELIVERED only, still Jan 30 in UTC
  await event(ids.a, 'DELIVERED', '2027-01-31T00:00:00.000Z'); // a late delivery report: delivered, not sent again
  await event(ids.a, 'OPENED', '2027-01-31T08:00:00.000Z');
  await event(ids.a, 'OPENED', '2027-01-31T09:00:00.000Z'); // a second open of the same email
  // Feb 1: both recipients of c refused it, two BOUNCED events in one statement (as delivery writes them).
  await sql`INSERT INTO email_events (team_id, email_id, status, data, created_at)
    VALUES (${team.id}::int, ${ids.c}, 'BOUNCED', '{"recipient":"c1@example.test"}', '2027-02-01T12:00:00Z'),
           (${team.id}::int, ${ids.c}, 'BOUNCED', '{"recipient":"c2@example.test"}', '2027-02-01T12:00:00Z')`.execute(
    h.t.deps.db,
  );
  await event(ids.b, 'CLICKED', '2027-02-02T07:00:00.000Z');
  await event(ids.b, 'COMPLAINED', '2027-02-02T08:00:00.000Z');
  await event(ids.a, 'OPENED', '2027-02-02T09:00:00.000Z'); // a third open, on another day: still one opened email
  await event(ids.b, 'DELIVERY_DELAYED', '2027-02-02T09:30:00.000Z'); // not a counted kind
  h.t.clock.set('2027-02-02T18:00:00.000Z');
});
afterAll(() => h.close());

describe('GET /v1/analytics/email-time-series', () => {
  it('counts emails per UTC day across a month boundary, with the empty days', async () => {
    const { result, totalCounts } = await series('?days=7');
    expect(result).toEqual([
      day('2027-01-27'),
      day('2027-01-28'),
      day('2027-01-29'),
      day('2027-01-30', { sent: 2, delivered: 1 }),
      day('2027-01-31', { delivered: 1, opened: 1 }),
      day('2027-02-01', { bounced: 1 }),
      day('2027-02-02', { clicked: 1, complained: 1 }),
    ]);
    expect(totalCounts).toEqual({ sent: 2, delivered: 2, opened: 1, clicked: 1, bounced: 1, complained: 1 });
  });

  it('gives 30 days by default, ending today by the clock, oldest first', async () => {
    const { result, totalCounts } = await series('');
    expect(result).toHaveLength(30);
    expect(result[0]!.date).toBe('2027-01-04');
    expect(result.at(-1)!.date).toBe('2027-02-02');
    expect(
      result.slice(0, 26).every((d) => d.sent + d.delivered + d.opened + d.clicked + d.bounced + d.complained === 0),
    ).toBe(true);
    expect(totalCounts).toEqual((await series('?days=7')).totalCounts);
    expect((await series('?days=30')).result).toEqual(result);
  });

  it('leaves out days that moved out of the window', async () => {
    h.t.clock.set('2027-02-06T00:00:00.000Z'); // the window is Jan 31 .. Feb 6
    try {
      const { result, totalCounts } = await series('?days=7');
      expect(result[0]).toEqual(day('2027-01-31', { delivered: 1, opened: 1 }));
      expect(totalCounts).toEqual({ sent: 0, delivered: 1, opened: 1, clicked: 1, bounced: 1, complained: 1 });
    } finally {
      h.t.clock.set('2027-02-02T18:00:00.000Z');
    }
  });

  it('filters by domain', async () => {
    const first = await series(`?days=7&domainId=${team.domain.id}`);
    expect(first.result.slice(3)).toEqual([
      day('2027-01-30', { sent: 1 }),
      day('2027-01-31', { delivered: 1, opened: 1 }),
      day('2027-02-01', { bounced: 1 }),
      day('2027-02-02'),
    ]);
    const other = await series(`?days=7&domainId=${second.id}`);
    expect(other.totalCounts).toEqual({ ...zero, sent: 1, delivered: 1, clicked: 1, complained: 1 });
  });

  it('answers zeros for a team without mail', async () => {
    const { result, totalCounts } = await series('?days=7', (await h.team()).key);
    expect(result.map((d) => d.date)).toEqual([
      '2027-01-27',
      '2027-01-28',
      '2027-01-29',
      '2027-01-30',
      '2027-01-31',
      '2027-02-01',
      '2027-02-02',
    ]);
    expect(totalCounts).toEqual(zero);
  });

  it.each(['14', '0', '7.0', 'seven', ''])('refuses days=%j naming the field', async (days) => {
    const response = await get(`email-time-series?days=${days}`);
    expect(response.statusCode).toBe(400);
    expect(response.json().error.message).toMatch(/days/);
  });
});

describe('GET /v1/analytics/reputation-metrics', () => {
  it('gives all-time delivered, hard bounces and complaints with rates as fractions of delivered', async () => {
    const response = await get('reputation-metrics');
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({
      delivered: 2,
      hardBounced: 1,
      complained: 1,
      bounceRate: 0.5,
      complaintRate: 0.5,
    });
  });

  it('is not limited to the last 30 days', async () => {
    h.t.clock.set('2028-06-01T00:00:00.000Z');
    try {
      expect((await get('reputation-metrics')).json()).toMatchObject({ delivered: 2, hardBounced: 1, complained: 1 });
    } finally {
      h.t.clock.set('2027-02-02T18:00:00.000Z');
    }
  });

  it('filters by domain, and answers 0 rates when nothing was delivered', async () => {
    expect((await get(`reputation-metrics?domainId=${second.id}`)).json()).toEqual({
      delivered: 1,
      hardBounced: 0,
      complained: 1,
      bounceRate: 0,
      complaintRate: 1,
    });
    expect((await get(`reputation-metrics?domainId=${team.domain.id}`)).json()).toEqual({
      delivered: 1,
      hardBounced: 1,
      complained: 0,
      bounceRate: 1,
      complaintRate: 0,
    });
    const fresh = await h.team();
    expect((await get('reputation-metrics', fresh.key)).json()).toEqual({
      delivered: 0,
      hardBounced: 0,
      complained: 0,
      bounceRate: 0,
      complaintRate: 0,
    });
  });
});

describe('domains and access', () => {
  it.each(['email-time-series?', 'reputation-metrics?'])(
    "%s another team's or an unknown domain is 404",
    async (path) => {
      for (const domainId of [other.domain.id, 2_000_000_000]) {
        const response = await get(`${path}domainId=${domainId}`);
        expect(response.statusCode, response.body).toBe(404);
        expect(response.json().error.code).toBe('NOT_FOUND');
      }
    },
  );

  it('refuses a domainId that is not a number', async () => {
    const response = await get('reputation-metrics?domainId=abc');
    expect(response.statusCode).toBe(400);
    expect(response.json().error.message).toMatch(/domainId/);
  });

  it('a key limited to one domain sees that domain only, and 403 for another', async () => {
    const { key } = await team.makeKey('full', { domainId: second.id });
    expect((await series('?days=7', key)).totalCounts).toEqual({
      ...zero,
      sent: 1,
      delivered: 1,
      clicked: 1,
      complained: 1,
    });
    expect((await get('reputation-metrics', key)).json()).toMatchObject({ delivered: 1, hardBounced: 0 });
    expect((await get(`reputation-metrics?domainId=${second.id}`, key)).statusCode).toBe(200);
    const refused = await get(`email-time-series?domainId=${team.domain.id}`, key);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.code).toBe('FORBIDDEN');
  });

  it.each(['sending', 'readonly'] as const)('a %s key is refused (FULL)', async (kind) => {
    const { key } = await team.makeKey(kind);
    for (const path of ['email-time-series', 'reputation-metrics']) {
      const response = await get(path, key);
      expect(response.statusCode).toBe(403);
      expect(response.json().error.code).toBe('SCOPE_DENIED');
    }
  });

  it('no key is 401', async () => {
    expect((await h.app.inject({ method: 'GET', url: '/api/v1/analytics/reputation-metrics' })).statusCode).toBe(401);
  });
});

describe('the counters', () => {
  it('the backfill computes what the trigger kept', async () => {
    const totals = (db: typeof h.t.deps.db) =>
      sql<{ day: string; domain_id: number; counts: string }>`
        SELECT to_char(day, 'YYYY-MM-DD') AS day, domain_id,
               concat_ws(',', sum(sent), sum(delivered), sum(opened), sum(clicked), sum(bounced), sum(hard_bounced), sum(complained)) AS counts
        FROM email_daily_stats WHERE team_id = ${team.id}::int GROUP BY day, domain_id ORDER BY day, domain_id`
        .execute(db)
        .then((r) => r.rows);
    const kept = await totals(h.t.deps.db);
    expect(kept.length).toBeGreaterThan(0);
    const rebuilt = await h.t.deps.db
      .transaction()
      .execute(async (tx) => {
        // The backfill counts every team's events: start it from nothing.
        await sql`DELETE FROM email_daily_stats`.execute(tx);
        await backfillDailyStats(tx);
        const rows = await totals(tx);
        throw Object.assign(new Error('roll back'), { rows });
      })
      .catch((error: { rows?: unknown }) => error.rows);
    expect(rebuilt).toEqual(kept);
    expect(await totals(h.t.deps.db)).toEqual(kept); // rolled back: other teams' counters untouched
  });
});
