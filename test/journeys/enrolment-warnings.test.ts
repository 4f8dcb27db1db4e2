// The CONTACT_ADDED enrolment queue deletes each row in the transaction that makes its runs, so the
// queue's finaliser finds nothing to write back: that must not read as a lease lost. Every warning
// and error the runner logs while contacts are enrolled is captured here; there must be none.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { journeyEnrolmentsQueue, journeyRunsQueue, JOURNEY_ENROLMENTS_QUEUE } from '../../src/journeys/index.ts';
import { QueueRunner, type QueueLogger } from '../../src/queue/index.ts';
import { startEmailHarness, type EmailHarness } from '../emails/support.ts';
import { addContact, journeyTeam, makeJourney } from './support.ts';

let h: EmailHarness;
const logged: { level: string; obj: object; msg: string }[] = [];
const capture =
  (level: string) =>
  (obj: object, msg: string): void => {
    logged.push({ level, obj, msg });
  };
const logger: QueueLogger = {
  debug: () => {},
  info: () => {},
  warn: capture('warn'),
  error: capture('error'),
};

beforeAll(async () => {
  h = await startEmailHarness();
}, 120_000);
afterAll(async () => {
  await h.close();
});

it('enrols added contacts without a lease warning', async () => {
  const runner = new QueueRunner({
    database: h.t.deps.database,
    queues: [journeyEnrolmentsQueue(), journeyRunsQueue()],
    clock: h.t.clock,
    pollMs: 50,
    logger,
  });
  await runner.start();
  try {
    const team = await journeyTeam(h);
    const journey = await makeJourney(
      team,
      { triggerType: 'CONTACT_ADDED', steps: [{ id: 'later', type: 'WAIT', seconds: 3600 }] },
      'ACTIVE',
    );
    await addContact(team, { email: 'one@example.test' });
    await addContact(team, { email: 'two@example.test' });
    const bulk = await team.call('POST', `/v1/contactBooks/${team.bookId}/contacts/bulk`, [
      { email: 'three@example.test' },
    ]);
    expect(bulk.status).toBe(200);
    await expect
      .poll(
        async () => {
          runner.notify(JOURNEY_ENROLMENTS_QUEUE);
          await runner.idle();
          return (await team.call('GET', `/v1/journeys/${journey.id}`)).body.stats.enrolled;
        },
        { timeout: 30_000 },
      )
      .toBe(3);
    // The rows are gone, and the batches that deleted them have been written back.
    await runner.idle();
    expect(
      await h.t.deps.db.selectFrom('journey_enrolments').select('id').where('team_id', '=', team.id).execute(),
    ).toEqual([]);
  } finally {
    await runner.stop();
  }
  expect(logged).toEqual([]);
});
