// recordEmailEvents: one statement for a batch of late events (opens, clicks, bounce reports), each
// with exactly recordEmailEvent's rules: the event joins the history, the status moves only where the
// precedence table allows (never out of QUEUED or SCHEDULED), another team's or a missing email is
// `found: false` and writes nothing; the triggers on email_events still fire for every event.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EmailStatus } from '../../src/db/schema.ts';
import { recordEmailEvent, recordEmailEvents } from '../../src/emails/index.ts';
import { emails, startEmailHarness, type EmailHarness, type SendingTeam } from './support.ts';

let h: EmailHarness;
let team: SendingTeam;
beforeAll(async () => {
  h = await startEmailHarness();
  team = await h.team();
});
afterAll(async () => h.close());

/** Sends one email through the API (it stays QUEUED: no delivery worker runs) and sets its status. */
async function emailWithStatus(to: string, status: EmailStatus): Promise<string> {
  const id = await emails(h.app, team.key).sent({ from: team.from(), to, subject: 'S', text: 'x' });
  if (status !== 'QUEUED') await h.t.deps.db.updateTable('emails').set({ status }).where('id', '=', id).execute();
  return id;
}

const statusOf = async (id: string) =>
  (await h.t.deps.db.selectFrom('emails').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status;
const historyOf = async (id: string) =>
  (
    await h.t.deps.db
      .selectFrom('email_events')
      .select(['status', 'data', 'created_at'])
      .where('email_id', '=', id)
      .orderBy('id')
      .execute()
  ).map((e) => ({
    status: e.status,
    data: e.data,
    at: new Date(e.created_at).toISOString(),
  }));

describe('recordEmailEvents', () => {
  it('records a batch of several emails in one call, answering in input order with the precedence table applied', async () => {
    const delivered = await emailWithStatus('a@example.com', 'DELIVERED');
    const bounced = await emailWithStatus('b@example.com', 'BOUNCED');
    const queued = await emailWithStatus('c@example.com', 'QUEUED');
    const opened = await emailWithStatus('d@example.com', 'OPENED');
    const sent = await emailWithStatus('e@example.com', 'SENT');
    const at = new Date('2026-05-04T10:00:00.000Z');
    // Not in email id order on purpose: the answer follows the input, the locks follow the ids.
    const recorded = await recordEmailEvents(h.t.deps.db, [
      { teamId: team.id, emailId: sent, status: 'BOUNCED', data: { recipient: 'e@example.com' }, at },
      { teamId: team.id, emailId: queued, status: 'OPENED', data: { userAgent: 'UA' }, at },
      { teamId: team.id, emailId: delivered, status: 'OPENED', data: { userAgent: 'UA' }, at },
      { teamId: team.id, emailId: 'em_does_not_exist', status: 'OPENED', data: null, at },
      { teamId: team.id, emailId: bounced, status: 'OPENED', data: null, at },
      { teamId: team.id, emailId: opened, status: 'DELIVERED', data: undefined, at },
    ]);
    expect(recorded).toEqual([
      { found: true, status: 'BOUNCED' },
      // QUEUED: the delivery worker owns the status (recipients may await a retry).
      { found: true, status: 'QUEUED' },
      { found: true, status: 'OPENED' },
      { found: false, status: null },
      // BOUNCED is replaced by nothing but a complaint; a late DELIVERED never replaces OPENED.
      { found: true, status: 'BOUNCED' },
      { found: true, status: 'OPENED' },
    ]);
    expect([
      await statusOf(sent),
      await statusOf(queued),
      await statusOf(delivered),
      await statusOf(bounced),
      await statusOf(opened),
    ]).toEqual(['BOUNCED', 'QUEUED', 'OPENED', 'BOUNCED', 'OPENED']);
    // Every found event joins the history, whether or not it moved the status.
    expect((await historyOf(queued)).at(-1)).toEqual({
      status: 'OPENED',
      data: { userAgent: 'UA' },
      at: at.toISOString(),
    });
    expect((await historyOf(bounced)).at(-1)).toEqual({ status: 'OPENED', data: null, at: at.toISOString() });
    expect((await historyOf(opened)).at(-1)).toEqual({ status: 'DELIVERED', data: null, at: at.toISOString() });
    expect((await historyOf(sent)).at(-1)).toEqual({
      status: 'BOUNCED',
      data: { recipient: 'e@example.com' },
      at: at.toISOString(),
    });
  });

  it('writes nothing for another team’s email, and refuses an email twice in one call', async () => {
    const other = await h.team();
    const id = await emailWithStatus('f@example.com', 'DELIVERED');
    const before = await historyOf(id);
    const at = new Date('2026-05-04T11:00:00.000Z');
    expect(
      await recordEmailEvents(h.t.deps.db, [{ teamId: other.id, emailId: id, status: 'COMPLAINED', data: null, at }]),
    ).toEqual([{ found: false, status: null }]);
    expect(await recordEmailEvent(h.t.deps.db, other.id, id, 'OPENED', null, at)).toEqual({
      found: false,
      status: null,
    });
    expect(await historyOf(id)).toEqual(before);
    expect(await statusOf(id)).toBe('DELIVERED');

    const twice = [
      { teamId: team.id, emailId: id, status: 'OPENED' as const, data: null, at },
      { teamId: team.id, emailId: id, status: 'CLICKED' as const, data: null, at },
    ];
    await expect(recordEmailEvents(h.t.deps.db, twice)).rejects.toThrow(/twice/);
    expect(await historyOf(id)).toEqual(before);
    expect(await recordEmailEvents(h.t.deps.db, [])).toEqual([]);
  });

  it('fires the triggers: address activity follows, the daily counters count an email’s first open once', async () => {
    const db = h.t.deps.db;
    const [x, y] = [
      await emailWithStatus('open-x@example.com', 'DELIVERED'),
      await emailWithStatus('open-y@example.com', 'DELIVERED'),
    ];
    const day = '2026-06-15';
    const opened = async () => {
      // Summed over the shards (the writing backend's pid modulo 8), as the analytics readers do.
      const { rows } = await sql<{
        opened: number;
      }>`SELECT coalesce(sum(opened), 0)::int AS opened FROM email_daily_stats WHERE team_id = ${team.id} AND day = ${day}::date`.execute(
        db,
      );
      return rows[0]!.opened;
    };
    const first = new Date(`${day}T08:00:00.000Z`);
    const later = new Date(`${day}T09:00:00.000Z`);
    await recordEmailEvents(db, [
      { teamId: team.id, emailId: x, status: 'OPENED', data: null, at: first },
      { teamId: team.id, emailId: y, status: 'OPENED', data: null, at: first },
    ]);
    expect(await opened()).toBe(2);
    // Repeated opens of the same emails (in one batch, and one more on its own) are not counted again.
    await recordEmailEvents(db, [
      { teamId: team.id, emailId: y, status: 'OPENED', data: null, at: later },
      { teamId: team.id, emailId: x, status: 'OPENED', data: null, at: later },
    ]);
    await recordEmailEvent(db, team.id, x, 'OPENED', null, later);
    expect(await opened()).toBe(2);

    const activity = await db
      .selectFrom('address_activity')
      .select(['address', 'last_opened_at'])
      .where('team_id', '=', team.id)
      .where('address', 'in', ['open-x@example.com', 'open-y@example.com'])
      .orderBy('address')
      .execute();
    expect(activity.map((a) => ({ address: a.address, at: new Date(a.last_opened_at!).toISOString() }))).toEqual([
      { address: 'open-x@example.com', at: later.toISOString() },
      { address: 'open-y@example.com', at: later.toISOString() },
    ]);
  });
});
