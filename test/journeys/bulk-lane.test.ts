// Journey mail is delivered by the bulk lane, with campaign mail: the transactional lane alone sends
// a password reset and leaves the journey's email queued; the bulk lane then sends it.
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createLogTransport } from '../../src/adapters/mail-transport/index.ts';
import { bulkDeliveryQueue, emailDeliveryQueue, type DeliveryDeps } from '../../src/emails/index.ts';
import { sessionBounces } from '../../src/feedback/index.ts';
import { QueueRunner, type Queue } from '../../src/queue/index.ts';
import { startEmailHarness, type EmailHarness } from '../emails/support.ts';
import { addContact, journeyTeam, makeJourney, startRunner } from './support.ts';

let h: EmailHarness;
beforeAll(async () => {
  h = await startEmailHarness();
}, 120_000);
afterAll(() => h.close());

it("delivers a journey's email in the bulk lane, never before transactional mail", async () => {
  const team = await journeyTeam(h);
  const journey = await makeJourney(team, {}, 'ACTIVE');
  const contactId = await addContact(team, { email: 'ada@example.test', firstName: 'Ada' });
  expect((await team.call('POST', `/v1/journeys/${journey.id}/enroll`, { contactId })).status).toBe(201);
  const statuses = async () =>
    (
      await sql<{ subject: string; bulk: boolean; status: string }>`SELECT subject, bulk, status FROM emails
        WHERE team_id = ${team.id} ORDER BY subject`.execute(h.t.deps.db)
    ).rows;
  // The journey's turn stores its email; no delivery lane runs yet.
  const journeys = await startRunner(h, { delivery: false });
  try {
    await expect.poll(async () => (await statuses()).length, { timeout: 20_000 }).toBe(1);
  } finally {
    await journeys.runner.stop();
  }
  const reset = await team.call('POST', '/v1/emails', {
    from: team.from(),
    to: 'someone@example.test',
    subject: 'Reset your password',
    html: '<p>reset</p>',
  });
  expect(reset.status).toBe(200);
  const deps: DeliveryDeps = {
    secrets: h.t.deps.secrets,
    publicUrl: h.t.deps.config.publicUrl,
    transport: createLogTransport(() => {}),
    mailDomain: h.t.deps.config.mailDomain,
    bounces: sessionBounces,
  };
  const lane = async (queue: Queue, until: () => Promise<boolean>) => {
    const runner = new QueueRunner({ database: h.t.deps.database, queues: [queue], clock: h.t.clock, pollMs: 50 });
    await runner.start();
    try {
      await expect.poll(until, { timeout: 20_000 }).toBe(true);
    } finally {
      await runner.stop();
    }
  };
  await lane(emailDeliveryQueue(deps), async () => (await statuses()).some((e) => e.status === 'SENT'));
  expect(await statuses()).toEqual([
    { subject: 'Hi Ada', bulk: true, status: 'QUEUED' },
    { subject: 'Reset your password', bulk: false, status: 'SENT' },
  ]);
  await lane(bulkDeliveryQueue(deps), async () => (await statuses()).every((e) => e.status === 'SENT'));
});
