// Each step's email is stored exactly once, driven through the real queue claim: a worker whose
// lease ran out (another took its runs over) stores nothing, the one holding the lease stores one
// email per run and step, also when both run at once; a batch with one refused send rolls back and
// each run takes its turn alone (the refused one exits with SEND_FAILED, the others go on).
import { afterAll, beforeAll, expect, it } from 'vitest';
import { journeyRunsQueue } from '../../src/journeys/index.ts';
import { claimDue, type BatchContext, type ClaimedBatch, type Queue } from '../../src/queue/index.ts';
import { silentLogger } from '../../src/queue/types.ts';
import { startEmailHarness, type EmailHarness } from '../emails/support.ts';
import { addContact, journeyTeam, makeJourney, type Json, type JourneyTeam } from './support.ts';

let h: EmailHarness;
let team: JourneyTeam;
const queue: Queue = journeyRunsQueue();

beforeAll(async () => {
  h = await startEmailHarness();
  team = await journeyTeam(h);
}, 120_000);
afterAll(async () => h.close());

async function enrolled(journeyId: string, emails: string[]): Promise<string[]> {
  const ids: string[] = [];
  for (const email of emails) {
    const contactId = await addContact(team, { email, firstName: 'Once' });
    const run = await team.call('POST', `/v1/journeys/${journeyId}/enroll`, { contactId });
    expect(run.status).toBe(201);
    ids.push(run.body.id);
  }
  return ids;
}

/** A worker's claim, narrowed to these runs (other files of the worker may leave rows due). */
async function claim(runIds: string[]): Promise<ClaimedBatch> {
  const batch = await claimDue(h.t.deps.db, queue, h.t.clock.now());
  return { ...batch, rows: batch.rows.filter((row) => runIds.includes(String(row.id))) };
}

function work(batch: ClaimedBatch) {
  const ctx: BatchContext = {
    queue: queue.name,
    db: h.t.deps.db,
    clock: h.t.clock,
    claimedAt: batch.claimedAt,
    leaseUntil: batch.leaseUntil,
    signal: new AbortController().signal,
    logger: silentLogger,
  };
  return queue.handleBatch(batch.rows, ctx);
}

const emailsOf = async (runIds: string[]) =>
  (await h.t.deps.db.selectFrom('journey_runs').select('history').where('id', 'in', runIds).execute()).flatMap((row) =>
    (row.history as Json[]).filter((entry) => entry.type === 'EMAIL'),
  );
const storedEmails = async (addresses: string[]) =>
  (await h.t.deps.db.selectFrom('emails').select('to').where('team_id', '=', team.id).execute()).filter((email) =>
    addresses.some((address) => JSON.stringify(email.to).includes(address)),
  );

it('a worker that lost its lease stores nothing; the one holding it stores one email per run', async () => {
  const j = await makeJourney(team, {}, 'ACTIVE');
  const addresses = ['once-a@example.test', 'once-b@example.test', 'once-c@example.test'];
  const runIds = await enrolled(j.id, addresses);
  const stale = await claim(runIds);
  expect(stale.rows).toHaveLength(3);
  h.t.clock.advance(queue.leaseMs + 1000);
  const current = await claim(runIds);
  expect(current.rows).toHaveLength(3);

  await work(stale);
  expect(await storedEmails(addresses)).toHaveLength(0);
  await work(current);
  expect(await storedEmails(addresses)).toHaveLength(3);
  expect(await emailsOf(runIds)).toHaveLength(3);
  expect((await team.call('GET', `/v1/journeys/${j.id}`)).body.stats.sentByStep).toEqual({ welcome: 3 });
});

it('two workers racing on the same due runs store each email once', async () => {
  const j = await makeJourney(team, {}, 'ACTIVE');
  const addresses = ['race-a@example.test', 'race-b@example.test'];
  const runIds = await enrolled(j.id, addresses);
  const stale = await claim(runIds);
  h.t.clock.advance(queue.leaseMs + 1000);
  const current = await claim(runIds);
  await Promise.all([work(stale), work(current)]);
  expect(await storedEmails(addresses)).toHaveLength(2);
  expect((await team.call('GET', `/v1/journeys/${j.id}`)).body.stats.sentByStep).toEqual({ welcome: 2 });
});

it('one refused send in a batch: that run exits SEND_FAILED, the others send once', async () => {
  const j = await makeJourney(team, {}, 'ACTIVE');
  const addresses = ['fine-a@example.test', 'fine-b@example.test', 'gone@example.test'];
  const runIds = await enrolled(j.id, addresses);
  // The last contact's address cannot be sent to: a recipient the email rules refuse.
  await h.t.deps.db
    .updateTable('contacts')
    .set({ email: 'not an address' })
    .where('team_id', '=', team.id)
    .where('email', '=', 'gone@example.test')
    .execute();
  const batch = await claim(runIds);
  const outcomes = await work(batch);
  expect(outcomes.map((o) => o.outcome)).toEqual(['done', 'done', 'done']);
  const runs = await h.t.deps.db.selectFrom('journey_runs').selectAll().where('id', 'in', runIds).execute();
  // Ids made in one millisecond sort randomly: compare in enrolment order.
  const byRun = new Map(runs.map((r) => [r.id, [r.status, r.exit_reason]]));
  expect(runIds.map((id) => byRun.get(id))).toEqual([
    ['ACTIVE', null],
    ['ACTIVE', null],
    ['EXITED', 'SEND_FAILED'],
  ]);
  expect(await storedEmails(addresses.slice(0, 2))).toHaveLength(2);
  expect((await team.call('GET', `/v1/journeys/${j.id}`)).body.stats).toMatchObject({
    active: 2,
    exited: 1,
    sentByStep: { welcome: 2 },
  });
});
