// The lock order every journeys writer keeps (src/journeys/run-queries.ts): journey row, contacts,
// runs by id, journey_stats. A runner's batch is held at its last lock (the test holds the journey's
// stats row) after it has locked its runs and stored its emails; an archive, an unsubscribe and
// enrolments then arrive. Each must wait for the batch and then succeed: no deadlock, no retry, each
// email stored once. Only PostgreSQL runs transactions side by side (PGlite has one connection).
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { journeyRunsQueue } from '../../src/journeys/index.ts';
import { claimDue, type BatchContext, type Queue } from '../../src/queue/index.ts';
import { silentLogger } from '../../src/queue/types.ts';
import { startEmailHarness, type EmailHarness } from '../emails/support.ts';
import { addContact, journeyTeam, makeJourney, type Json, type JourneyTeam } from './support.ts';

let h: EmailHarness;
let team: JourneyTeam;
const queue: Queue = journeyRunsQueue();

describe.skipIf(!process.env.DATABASE_URL)('lock order (PostgreSQL)', () => {
  beforeAll(async () => {
    h = await startEmailHarness();
    team = await journeyTeam(h);
  }, 120_000);
  afterAll(async () => h.close());

  async function enrolled(journeyId: string, prefix: string, count: number) {
    const contacts: string[] = [];
    const runs: string[] = [];
    for (let i = 0; i < count; i++) {
      const contactId = await addContact(team, { email: `${prefix}-${i}@example.test` });
      const run = await team.call('POST', `/v1/journeys/${journeyId}/enroll`, { contactId });
      expect(run.status).toBe(201);
      contacts.push(contactId);
      runs.push(run.body.id);
    }
    return { contacts, runs };
  }

  /** Sessions of this database waiting for a lock, polled until there are `count`. */
  async function waitersReach(count: number) {
    for (let i = 0; i < 400; i++) {
      const { rows } = await sql<{ n: number }>`SELECT count(*)::integer AS n FROM pg_stat_activity
        WHERE datname = current_database() AND wait_event_type = 'Lock'`.execute(h.t.deps.db);
      if (rows[0]!.n >= count) return;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    throw new Error(`fewer than ${count} sessions waiting for a lock`);
  }

  /** A batch of these runs, claimed and started, held at the journey's stats row until release(). */
  async function heldBatch(journeyId: string, runIds: string[]) {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const isLocked = new Promise<void>((resolve) => (locked = resolve));
    const holder = h.t.deps.db.transaction().execute(async (tx) => {
      await sql`SELECT 1 FROM journey_stats WHERE journey_id = ${journeyId} FOR UPDATE`.execute(tx);
      locked();
      await released;
    });
    await isLocked;
    const claimed = await claimDue(h.t.deps.db, queue, h.t.clock.now());
    const rows = claimed.rows.filter((row) => runIds.includes(String(row.id)));
    expect(rows).toHaveLength(runIds.length);
    const ctx: BatchContext = {
      queue: queue.name,
      db: h.t.deps.db,
      clock: h.t.clock,
      claimedAt: claimed.claimedAt,
      leaseUntil: claimed.leaseUntil,
      signal: new AbortController().signal,
      logger: silentLogger,
    };
    const working = queue.handleBatch(rows, ctx);
    await waitersReach(1); // the batch, at the stats row
    return {
      working,
      async finish() {
        release();
        await holder;
        return working;
      },
    };
  }

  const runsOf = async (journeyId: string) =>
    (await team.call('GET', `/v1/journeys/${journeyId}/runs`)).body.data as Json[];

  it('an archive during a batch waits for it, then exits the runs the batch moved on', async () => {
    const j = await makeJourney(team, {}, 'ACTIVE');
    const { runs } = await enrolled(j.id, 'archive', 5);
    const batch = await heldBatch(j.id, runs);
    const archiving = team.call('POST', `/v1/journeys/${j.id}/status`, { status: 'ARCHIVED' });
    await waitersReach(2); // the archive, at the journey row the batch KEY SHARE locked
    const outcomes = await batch.finish();
    expect((await archiving).status).toBe(200);
    expect(outcomes.map((o) => o.outcome)).toEqual(runs.map(() => 'done'));
    for (const run of await runsOf(j.id)) {
      expect(run).toMatchObject({ status: 'EXITED', exitReason: 'JOURNEY_ARCHIVED', currentStepIndex: 2 });
      expect(run.history.filter((e: Json) => e.type === 'EMAIL')).toHaveLength(1);
    }
    expect((await team.call('GET', `/v1/journeys/${j.id}`)).body.stats).toEqual({
      enrolled: 5,
      active: 0,
      completed: 0,
      exited: 5,
      failed: 0,
      sentByStep: { welcome: 5 },
    });
  });

  it('an unsubscribe during a batch waits for it, then exits the run; enrolments go on beside it', async () => {
    const j = await makeJourney(team, {}, 'ACTIVE');
    const { contacts, runs } = await enrolled(j.id, 'unsub', 3);
    const batch = await heldBatch(j.id, runs);
    const leaving = team.call('PATCH', `/v1/contactBooks/${team.bookId}/contacts/${contacts[0]}`, {
      subscribed: false,
    });
    await waitersReach(2); // the unsubscribe, at the run the batch holds
    // Enrolments of the same journey meanwhile (share lock on the journey, then the stats row).
    const newcomers = await Promise.all(
      [0, 1, 2].map((i) => addContact(team, { email: `newcomer-${i}@example.test` })),
    );
    const enrolling = Promise.all(
      newcomers.map((contactId) => team.call('POST', `/v1/journeys/${j.id}/enroll`, { contactId })),
    );
    await waitersReach(5);
    const outcomes = await batch.finish();
    expect((await leaving).status).toBe(200);
    expect((await enrolling).map((r) => r.status)).toEqual([201, 201, 201]);
    expect(outcomes.map((o) => o.outcome)).toEqual(runs.map(() => 'done'));
    const byContact = Object.fromEntries((await runsOf(j.id)).map((r) => [r.contactId, r]));
    expect(byContact[contacts[0]!]).toMatchObject({
      status: 'EXITED',
      exitReason: 'UNSUBSCRIBED',
      currentStepIndex: 2,
    });
    expect(byContact[contacts[1]!]).toMatchObject({ status: 'ACTIVE', currentStepIndex: 2 });
    expect((await team.call('GET', `/v1/journeys/${j.id}`)).body.stats).toMatchObject({
      enrolled: 6,
      active: 5,
      exited: 1,
      sentByStep: { welcome: 3 },
    });
  });
});
