// The usage row taken last (src/emails/limits.ts, UsageLock 'last'): a transaction decides on the
// usage it read, and its final addition finds out whether a send that committed meanwhile would
// have changed a decision. The send "committed meanwhile" is played by a bump of the team's row
// inside the transaction itself, between the decision and the addition (the caller's `beside`
// rows), which is exactly what the addition sees of a concurrent commit.
import { sql, type Transaction } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Database } from '../../src/db/schema.ts';
import { sendBatching } from '../../src/emails/index.ts';
import { UsageRaced, usageOfDay } from '../../src/emails/limits.ts';
import { queueEmailSends } from '../../src/emails/queue-emails.ts';
import type { SendJob } from '../../src/emails/send-batch.ts';
import { systemPrincipal } from '../../src/platform/auth/system-principal.ts';
import { dailySendLimit } from '../../src/platform/plans.ts';
import { startEmailHarness, storedEmailCount, type EmailHarness, type SendingTeam } from './support.ts';

let h: EmailHarness;
beforeAll(async () => {
  h = await startEmailHarness();
});
afterAll(async () => h.close());

const DAILY = dailySendLimit('free')!;
const day = () => h.t.clock.now().toISOString().slice(0, 10);

/** Sets the team's transactional count of today, committed. */
async function setUsage(team: SendingTeam, transactional: number) {
  await sql`INSERT INTO team_daily_usage (team_id, day, transactional) VALUES (${team.id}, ${day()}::date, ${transactional})
    ON CONFLICT (team_id, day) DO UPDATE SET transactional = excluded.transactional`.execute(h.t.deps.db);
}
const bump = (tx: Transaction<Database>, team: SendingTeam, by: number) =>
  sql`UPDATE team_daily_usage SET transactional = transactional + ${by}
    WHERE team_id = ${team.id} AND day = ${day()}::date`.execute(tx);

/** One send of one recipient under 'last', the row bumped by `by` before the addition. */
const sendRacing = (team: SendingTeam, by: number) =>
  h.t.deps.db.transaction().execute((tx) =>
    queueEmailSends(
      tx,
      [
        {
          principal: systemPrincipal(team.id, 'journey'),
          inputs: [{ from: team.from(), to: 'race@example.com', subject: 'S', text: 'x' }],
        },
      ],
      { now: h.t.clock.now(), usageLock: 'last', beside: async () => void (await bump(tx, team, by)) },
    ),
  );

it('a send committed meanwhile that changes no decision: stored, both counted', async () => {
  const team = await h.team({ plan: 'free' });
  await setUsage(team, DAILY - 5);
  const [outcome] = await sendRacing(team, 3);
  expect(outcome).toHaveProperty('sent');
  expect(await storedEmailCount(h.t, team.id)).toBe(1);
  expect((await usageOfDay(h.t.deps.db, team.id, day())).transactional).toBe(DAILY - 1);
});

it('a send committed meanwhile that takes the last place: UsageRaced, nothing of the send stored', async () => {
  const team = await h.team({ plan: 'free' });
  await setUsage(team, DAILY - 1);
  await expect(sendRacing(team, 1)).rejects.toBeInstanceOf(UsageRaced);
  expect(await storedEmailCount(h.t, team.id)).toBe(0);
  expect((await usageOfDay(h.t.deps.db, team.id, day())).transactional).toBe(DAILY - 1);
});

it('the send routes’ batch: raced once, decided again under the lock and stored', async () => {
  const team = await h.team({ plan: 'free' });
  await setUsage(team, DAILY - 1);
  let writes = 0;
  const job: SendJob = {
    principal: systemPrincipal(team.id, 'journey'),
    inputs: [{ from: team.from(), to: 'raced@example.com', subject: 'S', text: 'x' }],
    batch: false,
    now: h.t.clock.now(),
    // The first attempt's own row comes with a concurrent send that takes the last place; it is
    // rolled back with that attempt, so the second attempt (usage locked first) still fits.
    alongside: {
      row: (ids) => ids,
      write: async (tx) => {
        writes += 1;
        if (writes === 1) await bump(tx, team, 1);
      },
    },
  };
  const sent = await sendBatching(h.t.deps.db).submit(job);
  expect(sent.ids).toHaveLength(1);
  expect(writes).toBe(2);
  expect(await storedEmailCount(h.t, team.id)).toBe(1);
  expect((await usageOfDay(h.t.deps.db, team.id, day())).transactional).toBe(DAILY);
});
