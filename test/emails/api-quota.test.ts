// Plan send limits (every recipient counts; 429 stores nothing) and the suppression list.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { usageOfDay } from '../../src/emails/limits.ts';
import { dailySendLimit, monthlySendLimit } from '../../src/platform/plans.ts';
import { emails, startEmailHarness, storedEmailCount, type EmailHarness } from './support.ts';

let h: EmailHarness;
beforeAll(async () => {
  h = await startEmailHarness();
});
afterAll(async () => h.close());

const addresses = (n: number, prefix = 'q') => Array.from({ length: n }, (_, i) => `${prefix}${i}@example.com`);
const day = () => h.t.clock.now().toISOString().slice(0, 10);

async function usedToday(teamId: number): Promise<number> {
  const used = await usageOfDay(h.t.deps.db, teamId, day());
  return used.transactional + used.marketing;
}

describe('send limits', () => {
  it('the free plan allows its daily limit of recipients and answers 429 past it, storing nothing', async () => {
    expect(dailySendLimit('free')).toBe(100);
    const team = await h.team();
    const api = emails(h.app, team.key);
    const base = { from: team.from(), subject: 'Quota', text: 'x' };
    expect((await api.send({ ...base, to: addresses(50, 'a') })).statusCode).toBe(200);
    expect((await api.send({ ...base, to: addresses(30, 'b'), cc: addresses(20, 'c') })).statusCode).toBe(200);
    expect(await usedToday(team.id)).toBe(100);
    const over = await api.send({ ...base, to: 'one-more@example.com' });
    expect(over.statusCode).toBe(429);
    expect(over.json().error.code).toBe('RATE_LIMITED');
    expect(await storedEmailCount(h.t, team.id)).toBe(2);
    expect(await usedToday(team.id)).toBe(100);
    // A batch reserves the sum of its recipients: refused as a whole.
    expect((await api.batch([{ ...base, to: 'x@example.com' }])).statusCode).toBe(429);
    expect(await storedEmailCount(h.t, team.id)).toBe(2);
  });

  it('a batch over the daily limit stores nothing, even though its first messages would fit', async () => {
    const team = await h.team();
    const api = emails(h.app, team.key);
    const base = { from: team.from(), subject: 'Quota', text: 'x' };
    const response = await api.batch([
      { ...base, to: addresses(50, 'd') },
      { ...base, to: addresses(50, 'e') },
      { ...base, to: 'f@example.com' },
    ]);
    expect(response.statusCode).toBe(429);
    expect(await storedEmailCount(h.t, team.id)).toBe(0);
    expect(await usedToday(team.id)).toBe(0);
  });

  it('the monthly limit counts every day of the calendar month', async () => {
    const team = await h.team();
    const api = emails(h.app, team.key);
    const monthly = monthlySendLimit('free')!;
    const today = day();
    // Earlier days of this month (or today, on the 1st) already used all but 10.
    const earlier = today.endsWith('-01') ? today : `${today.slice(0, 8)}01`;
    await h.t.deps.db
      .insertInto('team_daily_usage')
      .values({ team_id: team.id, day: earlier, transactional: monthly - 10, marketing: 0 })
      .execute();
    if (earlier === today) return; // the 1st: the daily row is the monthly row; covered by the daily test
    const base = { from: team.from(), subject: 'Quota', text: 'x' };
    expect((await api.send({ ...base, to: addresses(10, 'g') })).statusCode).toBe(200);
    const over = await api.send({ ...base, to: 'h@example.com' });
    expect(over.statusCode).toBe(429);
    expect(over.json().error.message).toContain('Monthly');
  });
});

describe('send limits under concurrency (the sends share transactions, each checked alone)', () => {
  it('concurrent sends of one team never pass the daily limit: exactly the remaining ones succeed', async () => {
    const daily = dailySendLimit('pro')!;
    const team = await h.team({ plan: 'pro' });
    // Earlier today the team used all but 25 (one row, as the counter looked before any send today).
    await h.t.deps.db
      .insertInto('team_daily_usage')
      .values({ team_id: team.id, day: day(), transactional: daily - 25, marketing: 0 })
      .execute();
    const api = emails(h.app, team.key);
    const results = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        api.send({ from: team.from(), to: `c${i}@example.com`, subject: 'S', text: 'x' }),
      ),
    );
    const codes = results.map((r) => r.statusCode);
    expect(codes.filter((c) => c === 200)).toHaveLength(25);
    expect(codes.filter((c) => c === 429)).toHaveLength(15);
    expect(await usedToday(team.id)).toBe(daily);
    expect(await storedEmailCount(h.t, team.id)).toBe(25);
  });

  it('many concurrent sends add up exactly, and a lower plan limit applies at once', async () => {
    const team = await h.team({ plan: 'pro' });
    const api = emails(h.app, team.key);
    const results = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        api.send({ from: team.from(), to: [`s${i}@example.com`, `t${i}@example.com`], subject: 'S', text: 'x' }),
      ),
    );
    expect(results.every((r) => r.statusCode === 200)).toBe(true);
    expect(await usedToday(team.id)).toBe(60);
    // Down to the free plan (100 a day): 41 more recipients are refused and 40 fit.
    await h.t.deps.db.updateTable('teams').set({ plan: 'free' }).where('id', '=', team.id).execute();
    expect((await api.send({ from: team.from(), to: addresses(41, 'u'), subject: 'S', text: 'x' })).statusCode).toBe(
      429,
    );
    expect((await api.send({ from: team.from(), to: addresses(40, 'v'), subject: 'S', text: 'x' })).statusCode).toBe(
      200,
    );
    expect(await usedToday(team.id)).toBe(100);
  });
});

describe('the rules are read again at every send', () => {
  it('a recipient suppressed or the domain deleted since the last send', async () => {
    const team = await h.team({ plan: 'pro' });
    const api = emails(h.app, team.key);
    expect((await api.send({ from: team.from(), to: 'first@example.com', subject: 'S', text: 'x' })).statusCode).toBe(
      200,
    );
    const plain = await api.sent({ from: team.from(), to: 'second@example.com', subject: 'S', text: 'x' });
    expect((await api.get(plain)).json().emailEvents.map((e: { status: string }) => e.status)).toEqual(['QUEUED']);
    await h.t.deps.db
      .insertInto('suppressions')
      .values({
        team_id: team.id,
        email: 'gone@example.com',
        reason: 'BOUNCED',
        email_id: null,
        created_at: new Date(),
      })
      .execute();
    const mixed = await api.sent({
      from: team.from(),
      to: ['gone@example.com', 'third@example.com'],
      subject: 'S',
      text: 'x',
    });
    expect((await api.get(mixed)).json().emailEvents.map((e: { status: string }) => e.status)).toEqual([
      'SUPPRESSED',
      'QUEUED',
    ]);
    expect(await usedToday(team.id)).toBe(3);
    const deleted = await h.app.inject({
      method: 'DELETE',
      url: `/api/v1/domains/${team.domain.id}`,
      headers: { authorization: `Bearer ${team.key}` },
    });
    expect(deleted.statusCode).toBe(200);
    const refused = await api.send({ from: team.from(), to: 'fourth@example.com', subject: 'S', text: 'x' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error.message).toContain('is not a verified domain');
    expect(await storedEmailCount(h.t, team.id)).toBe(3);
    expect(await usedToday(team.id)).toBe(3);
  });
});

describe('suppressions', () => {
  it('a suppressed recipient is not counted and the email gets a SUPPRESSED event', async () => {
    const team = await h.team();
    await h.t.deps.db
      .insertInto('suppressions')
      .values({
        team_id: team.id,
        email: 'gone@example.com',
        reason: 'BOUNCED',
        email_id: null,
        created_at: new Date(),
      })
      .execute();
    const api = emails(h.app, team.key);
    const id = await api.sent({
      from: team.from(),
      to: ['Gone <GONE@example.com>', 'here@example.com'],
      subject: 'S',
      text: 'x',
    });
    expect(await usedToday(team.id)).toBe(1);
    const email = (await api.get(id)).json();
    expect(email.emailEvents.map((e: { status: string }) => e.status)).toEqual(['SUPPRESSED', 'QUEUED']);
    expect(email.emailEvents[0].data).toEqual({ recipients: ['gone@example.com'] });
  });

  it('an email whose every recipient is suppressed is SUPPRESSED, counts nothing and is not queued', async () => {
    const team = await h.team();
    await h.t.deps.db
      .insertInto('suppressions')
      .values({
        team_id: team.id,
        email: 'gone@example.com',
        reason: 'COMPLAINED',
        email_id: null,
        created_at: new Date(),
      })
      .execute();
    const api = emails(h.app, team.key);
    const id = await api.sent({ from: team.from(), to: 'gone@example.com', subject: 'S', text: 'x' });
    expect(await usedToday(team.id)).toBe(0);
    const listed = (await api.list()).json();
    expect(listed.data.find((e: { id: string }) => e.id === id).latestStatus).toBe('SUPPRESSED');
    const row = await h.t.deps.db.selectFrom('emails').select('status').where('id', '=', id).executeTakeFirstOrThrow();
    expect(row.status).toBe('SUPPRESSED');
  });
});
