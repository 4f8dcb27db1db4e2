// An EMAIL step is done when its email is sent, not when it is queued. A run whose last step is an
// EMAIL stays ACTIVE (past its last step) while its email waits in the queue, and completes once the
// email is sent; a last email that bounced exits it with SEND_FAILED. A run is not taken for its next
// EMAIL step, however long its WAIT, while the previous email is still queued.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogTransport } from '../../src/adapters/mail-transport/index.ts';
import { emailDeliveryLanes } from '../../src/emails/delivery.ts';
import { EMAIL_DELIVERY_QUEUE } from '../../src/emails/index.ts';
import { JOURNEY_RUNS_QUEUE, journeyRunsQueue } from '../../src/journeys/index.ts';
import { QueueRunner } from '../../src/queue/index.ts';
import { startEmailHarness, type EmailHarness } from '../emails/support.ts';
import { addContact, journeyTeam, makeJourney, type Json, type JourneyTeam } from './support.ts';
import { sessionBounces } from '../../src/feedback/index.ts';

let h: EmailHarness;
let journeys: QueueRunner;
let delivery: QueueRunner;

beforeAll(async () => {
  h = await startEmailHarness();
  // The journey runs alone; delivery starts in the last test, once its emails may go. One slot:
  // idle() then answers only once the batch that took the run is written back.
  journeys = new QueueRunner({
    database: h.t.deps.database,
    queues: [journeyRunsQueue()],
    clock: h.t.clock,
    pollMs: 50,
    concurrency: 1,
  });
  await journeys.start();
  delivery = new QueueRunner({
    database: h.t.deps.database,
    queues: emailDeliveryLanes({
      secrets: h.t.deps.secrets,
      publicUrl: h.t.deps.config.publicUrl,
      transport: createLogTransport(() => {}),
      mailDomain: h.t.deps.config.mailDomain,
      bounces: sessionBounces,
    }),
    clock: h.t.clock,
    pollMs: 50,
  });
}, 120_000);
afterAll(async () => {
  await journeys.stop();
  await delivery.stop();
  await h.close();
});

const MINUTE = 60_000;

async function turn(): Promise<void> {
  journeys.notify(JOURNEY_RUNS_QUEUE);
  await journeys.idle();
}

async function enrolled(team: JourneyTeam, steps: Json[]) {
  const journey = await makeJourney(team, { steps }, 'ACTIVE');
  const contactId = await addContact(team, { email: `c${h.t.clock.now().getTime()}@example.test` });
  const enrolment = await team.call('POST', `/v1/journeys/${journey.id}/enroll`, { contactId });
  expect(enrolment.status).toBe(201);
  const run = async (): Promise<Json> =>
    ((await team.call('GET', `/v1/journeys/${journey.id}/runs`)).body.data as Json[])[0]!;
  const stats = async (): Promise<Json> => (await team.call('GET', `/v1/journeys/${journey.id}`)).body.stats;
  return { journey, run, stats };
}

const emailIdsOf = (run: Json) =>
  (run.history as Json[]).filter((entry) => entry.type === 'EMAIL').map((entry) => entry.emailId as string);

const statusOf = async (emailId: string) =>
  (await h.t.deps.db.selectFrom('emails').select('status').where('id', '=', emailId).executeTakeFirstOrThrow()).status;

describe('a run whose email waits in the queue', () => {
  it('exits with SEND_FAILED when its last email bounced', async () => {
    const team = await journeyTeam(h);
    const { run, stats } = await enrolled(team, [
      { id: 'only', type: 'EMAIL', templateId: team.templateId, from: team.from() },
    ]);
    await turn();
    const [emailId] = emailIdsOf(await run());
    // What a bounce at the relay writes: the email left the queue, BOUNCED.
    await h.t.deps.db.updateTable('emails').set({ status: 'BOUNCED' }).where('id', '=', emailId!).execute();
    await turn();
    const ended = await run();
    expect(ended).toMatchObject({ status: 'EXITED', exitReason: 'SEND_FAILED', currentStepIndex: 1 });
    expect((ended.history as Json[]).at(-1)!.note).toContain('bounced');
    expect(await stats()).toMatchObject({ active: 0, exited: 1, completed: 0 });
  });

  it('does not send the next step, its WAIT over, while the previous email is still queued', async () => {
    const team = await journeyTeam(h);
    const { run } = await enrolled(team, [
      { id: 'first', type: 'EMAIL', templateId: team.templateId, from: team.from() },
      { id: 'pause', type: 'WAIT', seconds: 60 },
      { id: 'second', type: 'EMAIL', templateId: team.templateId, from: team.from() },
    ]);
    await turn();
    const [first] = emailIdsOf(await run());
    // Deferred at the relay: still QUEUED, its next attempt later.
    await h.t.deps.db
      .updateTable('emails')
      .set({ run_at: new Date(h.t.clock.now().getTime() + 60 * MINUTE) })
      .where('id', '=', first!)
      .execute();
    h.t.clock.advance(2 * MINUTE);
    await turn();
    expect(await run()).toMatchObject({ status: 'ACTIVE', currentStepIndex: 2 });
    expect(emailIdsOf(await run())).toEqual([first]);
    // Once it is sent, the next step goes.
    await h.t.deps.db.updateTable('emails').set({ status: 'SENT' }).where('id', '=', first!).execute();
    await turn();
    expect(emailIdsOf(await run())).toHaveLength(2);
  });

  it('stays ACTIVE past its last step until the email is sent, then COMPLETED', async () => {
    const team = await journeyTeam(h);
    const { run, stats } = await enrolled(team, [
      { id: 'only', type: 'EMAIL', templateId: team.templateId, from: team.from() },
    ]);
    await turn();
    const waiting = await run();
    expect(waiting).toMatchObject({ status: 'ACTIVE', currentStepIndex: 1, exitReason: null });
    const [emailId] = emailIdsOf(waiting);
    expect(await statusOf(emailId!)).toBe('QUEUED');
    expect((waiting.history as Json[]).map((entry) => entry.type)).toEqual(['EMAIL']);
    expect(await stats()).toMatchObject({ active: 1, completed: 0 });
    // Not taken again while the email waits, however often the queue looks.
    await turn();
    expect(await run()).toMatchObject({ status: 'ACTIVE', currentStepIndex: 1 });

    await delivery.start();
    delivery.notify(EMAIL_DELIVERY_QUEUE);
    await expect.poll(() => statusOf(emailId!), { timeout: 20_000 }).toBe('SENT');
    await expect
      .poll(
        async () => {
          await turn();
          return (await run()).status;
        },
        { timeout: 20_000 },
      )
      .toBe('COMPLETED');
    const done = await run();
    expect(done).toMatchObject({ currentStepIndex: 1, exitReason: null });
    expect((done.history as Json[]).map((entry) => entry.type)).toEqual(['EMAIL', 'COMPLETED']);
    expect(await stats()).toMatchObject({ active: 0, completed: 1, sentByStep: { only: 1 } });
  });
});
