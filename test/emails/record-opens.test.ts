// Recording opens (recordLaterOpens, then recordFirstOpens for the opens it leaves, as the tracking
// pixel's writers do): one OPENED event per tracked copy. The first open inserts it with recordEmailEvent's
// rules and fires the insert triggers once (a webhook call, the daily counter, address activity);
// later opens, in the same batch or later ones, only update the copy's tally, which the API merges
// into the event's data, and move address activity (to the hour).
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EmailStatus } from '../../src/db/schema.ts';
import { LATER_OPENS_KEPT, recordFirstOpens, recordLaterOpens, type OpenInput } from '../../src/emails/index.ts';
import { emailJson } from './delivery-support.ts';
import { createWebhook, startWebhookHarness, type WebhookHarness } from '../webhooks/support.ts';
import { emails, type EmailHarness, type SendingTeam } from './support.ts';

let w: WebhookHarness;
let h: EmailHarness;
let team: SendingTeam;
beforeAll(async () => {
  w = await startWebhookHarness({ dispatch: false });
  h = w.h;
  team = await h.team();
  await createWebhook(w, team.key, { url: w.url(), eventTypes: ['email.opened'] });
});
afterAll(async () => w?.close());

let sent = 0;
/** Sends one email through the API (no delivery worker runs) and sets its status. */
async function emailWithStatus(
  status: EmailStatus,
  to: string | string[] = `reader-${++sent}@example.com`,
): Promise<string> {
  const id = await emails(h.app, team.key).sent({ from: team.from(), to, subject: 'S', text: 'x' });
  await h.t.deps.db.updateTable('emails').set({ status }).where('id', '=', id).execute();
  return id;
}

const db = () => h.t.deps.db;
const statusOf = async (id: string) =>
  (await db().selectFrom('emails').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status;
/** The email's OPENED events as the API shows them. */
const opensOf = async (id: string) =>
  (await emailJson(h, team.key, id)).emailEvents
    .filter((e) => e.status === 'OPENED')
    .map((e) => ({ createdAt: e.createdAt, data: e.data }));
const openKeys = async (id: string) =>
  (
    await db()
      .selectFrom('email_events')
      .select('open_key')
      .where('email_id', '=', id)
      .where('status', '=', 'OPENED')
      .orderBy('id')
      .execute()
  ).map((e) => e.open_key);
const callsFor = async (id: string) =>
  Number(
    (
      await sql<{
        n: string;
      }>`SELECT count(*) AS n FROM webhook_calls WHERE team_id = ${team.id}::int AND payload::jsonb->'data'->>'emailId' = ${id}`.execute(
        db(),
      )
    ).rows[0]!.n,
  );
const lastOpenedAt = async (address: string) =>
  (
    await db()
      .selectFrom('address_activity')
      .select('last_opened_at')
      .where('team_id', '=', team.id)
      .where('address', '=', address)
      .executeTakeFirst()
  )?.last_opened_at;
const openedCounter = async () =>
  Number(
    (
      await sql<{
        n: string;
      }>`SELECT coalesce(sum(opened), 0) AS n FROM email_daily_stats WHERE team_id = ${team.id}::int`.execute(db())
    ).rows[0]!.n,
  );

/** Both steps, each in its own transaction (the pixel runs them in separate group commits). */
async function recordOpens(database: typeof h.t.deps.db, opens: OpenInput[]): Promise<void> {
  const firsts = await recordLaterOpens(database, opens);
  if (firsts.length > 0) await recordFirstOpens(database, firsts);
}

const at = (minute: number) => new Date(Date.UTC(2026, 4, 4, 10, minute));
const open = (emailId: string, minute: number, userAgent: string, recipient: string | null = null): OpenInput => ({
  teamId: team.id,
  emailId,
  recipient,
  userAgent,
  at: at(minute),
});

describe('recordOpens', () => {
  it('the first open inserts the event and fires its triggers once; later opens update its tally', async () => {
    const id = await emailWithStatus('DELIVERED', 'first@example.com');
    const counted = await openedCounter();
    await recordOpens(db(), [open(id, 1, 'UA/1')]);
    expect(await statusOf(id)).toBe('OPENED');
    expect(await opensOf(id)).toEqual([
      {
        createdAt: at(1).toISOString(),
        data: { userAgent: 'UA/1', openCount: 1, lastOpenedAt: at(1).toISOString(), laterOpens: [] },
      },
    ]);
    expect(await openKeys(id)).toEqual(['']);
    expect(await callsFor(id)).toBe(1);
    expect(await openedCounter()).toBe(counted + 1);
    expect(await lastOpenedAt('first@example.com')).toEqual(at(1));

    // Two later opens in one batch, then one more alone.
    await recordOpens(db(), [open(id, 5, 'UA/2'), open(id, 7, 'UA/3')]);
    await recordOpens(db(), [open(id, 9, 'UA/4')]);
    expect(await opensOf(id)).toEqual([
      {
        createdAt: at(1).toISOString(),
        data: {
          userAgent: 'UA/1',
          openCount: 4,
          lastOpenedAt: at(9).toISOString(),
          laterOpens: [5, 7, 9].map((minute, i) => ({ at: at(minute).toISOString(), userAgent: `UA/${i + 2}` })),
        },
      },
    ]);
    // No new event: no new webhook call, the email counted once. The address's last open moves
    // only when it is more than an hour past the recorded one.
    expect(await callsFor(id)).toBe(1);
    expect(await openedCounter()).toBe(counted + 1);
    expect(await lastOpenedAt('first@example.com')).toEqual(at(1));
    await recordOpens(db(), [open(id, 62, 'UA/5')]);
    expect(await lastOpenedAt('first@example.com')).toEqual(at(62));
    expect((await opensOf(id))[0]!.data).toMatchObject({ openCount: 5, lastOpenedAt: at(62).toISOString() });
  });

  it('several opens of a new copy in one batch: the first is the event, the rest are later opens', async () => {
    const id = await emailWithStatus('SENT');
    await recordOpens(db(), [open(id, 3, 'A'), open(id, 4, 'B'), open(id, 6, 'C')]);
    const [event, ...more] = await opensOf(id);
    expect(more).toEqual([]);
    expect(event!.createdAt).toBe(at(3).toISOString());
    expect(event!.data).toEqual({
      userAgent: 'A',
      openCount: 3,
      lastOpenedAt: at(6).toISOString(),
      laterOpens: [
        { at: at(4).toISOString(), userAgent: 'B' },
        { at: at(6).toISOString(), userAgent: 'C' },
      ],
    });
    expect(await callsFor(id)).toBe(1);
  });

  it(`keeps the latest ${LATER_OPENS_KEPT} later opens and counts them all`, async () => {
    const id = await emailWithStatus('DELIVERED');
    await recordOpens(db(), [open(id, 0, 'UA/0')]);
    const later = Array.from({ length: LATER_OPENS_KEPT + 5 }, (_, i) => open(id, i + 1, `UA/${i + 1}`));
    await recordOpens(db(), later.slice(0, 7));
    await recordOpens(db(), later.slice(7));
    const data = (await opensOf(id))[0]!.data as { openCount: number; laterOpens: { userAgent: string }[] };
    expect(data.openCount).toBe(later.length + 1);
    expect(data.laterOpens.map((o) => o.userAgent)).toEqual(later.slice(-LATER_OPENS_KEPT).map((o) => o.userAgent));
  });

  it("MARKETING copies each have their own event; the email's status and counter move once", async () => {
    const id = await emailWithStatus('DELIVERED', ['m1@example.com', 'm2@example.com']);
    const counted = await openedCounter();
    await recordOpens(db(), [
      open(id, 1, 'A', 'm1@example.com'),
      open(id, 2, 'B', 'm2@example.com'),
      open(id, 3, 'A2', 'm1@example.com'),
    ]);
    const events = await opensOf(id);
    expect(await openKeys(id)).toEqual(['m1@example.com', 'm2@example.com']);
    expect(events.map((e) => e.data)).toEqual([
      {
        recipient: 'm1@example.com',
        userAgent: 'A',
        openCount: 2,
        lastOpenedAt: at(3).toISOString(),
        laterOpens: [{ at: at(3).toISOString(), userAgent: 'A2' }],
      },
      { recipient: 'm2@example.com', userAgent: 'B', openCount: 1, lastOpenedAt: at(2).toISOString(), laterOpens: [] },
    ]);
    expect(await openedCounter()).toBe(counted + 1);
    expect(await callsFor(id)).toBe(2);
  });

  it('keeps the status rules: QUEUED and BOUNCED do not move; another team or a missing email writes nothing', async () => {
    const queued = await emailWithStatus('QUEUED');
    const bounced = await emailWithStatus('BOUNCED');
    const other = await h.team();
    const foreign = await emails(h.app, other.key).sent({
      from: other.from(),
      to: 'x@example.com',
      subject: 'S',
      text: 'x',
    });
    await recordOpens(db(), [
      open(queued, 1, 'A'),
      open(bounced, 1, 'A'),
      open(foreign, 1, 'A'),
      open('em_does_not_exist', 1, 'A'),
    ]);
    expect(await statusOf(queued)).toBe('QUEUED');
    expect(await statusOf(bounced)).toBe('BOUNCED');
    expect(await opensOf(queued)).toHaveLength(1);
    expect(await opensOf(bounced)).toHaveLength(1);
    expect(
      await db()
        .selectFrom('email_events')
        .select('id')
        .where('email_id', '=', foreign)
        .where('status', '=', 'OPENED')
        .execute(),
    ).toEqual([]);
    expect(
      await db()
        .selectFrom('email_opens')
        .select('email_id')
        .where('email_id', 'in', [foreign, 'em_does_not_exist'])
        .execute(),
    ).toEqual([]);
  });

  it("only a copy's first open moves the status: an email QUEUED then keeps what delivery gives it", async () => {
    // One recipient's copy went out and was opened while another recipient awaits a retry.
    const id = await emailWithStatus('QUEUED');
    await recordOpens(db(), [open(id, 1, 'A')]);
    expect(await statusOf(id)).toBe('QUEUED');
    await db().updateTable('emails').set({ status: 'DELIVERED' }).where('id', '=', id).execute();
    // A later open updates the tally alone: it never touches the email row.
    await recordOpens(db(), [open(id, 2, 'B')]);
    expect(await statusOf(id)).toBe('DELIVERED');
    expect(await opensOf(id)).toEqual([
      { createdAt: at(1).toISOString(), data: expect.objectContaining({ openCount: 2 }) },
    ]);
  });

  it('concurrent batches opening the same emails make one event per copy and lose no open', async () => {
    const ids = [
      await emailWithStatus('DELIVERED'),
      await emailWithStatus('DELIVERED'),
      await emailWithStatus('DELIVERED'),
    ];
    const batches = Array.from({ length: 6 }, (_, b) => ids.map((id, i) => open(id, b * 3 + i, `UA/${b}`)).reverse());
    await Promise.all(batches.map((batch) => recordOpens(db(), batch)));
    for (const id of ids) {
      const events = await opensOf(id);
      expect(events).toHaveLength(1);
      expect((events[0]!.data as { openCount: number }).openCount).toBe(batches.length);
      expect(await callsFor(id)).toBe(1);
    }
  });

  it("concurrent batches of first opens of one email's copies do not deadlock", async () => {
    // Inserting a copy's tally row takes a KEY SHARE lock on the email (its foreign key): batches
    // that had each inserted other copies of one email and then asked for the email's FOR UPDATE
    // lock would wait on each other. Disjoint copies per batch, so that no batch waits on another's
    // tally rows first.
    const recipients = Array.from({ length: 12 }, (_, i) => `copy${i}-${++sent}@example.com`);
    const id = await emailWithStatus('DELIVERED', recipients);
    const counted = await openedCounter();
    const batches = Array.from({ length: 4 }, (_, b) =>
      recipients.slice(b * 3, b * 3 + 3).map((r, i) => open(id, b * 3 + i, `UA/${b}`, r)),
    );
    await Promise.all(batches.map((batch) => recordOpens(db(), batch)));
    expect(await openKeys(id)).toHaveLength(recipients.length);
    expect((await opensOf(id)).map((e) => (e.data as { openCount: number }).openCount)).toEqual(
      recipients.map(() => 1),
    );
    expect(await statusOf(id)).toBe('OPENED');
    expect(await openedCounter()).toBe(counted + 1);
  });
});
