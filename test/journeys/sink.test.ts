// A three-step journey (EMAIL, WAIT an hour, EMAIL) from enrolment to COMPLETED, its two emails
// delivered by the real delivery worker through the SMTP relay transport to the sink: each arrives
// once, to the contact, personalised with its fields and properties, DKIM-signed for the domain.
import { simpleParser } from 'mailparser';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { harnessDnsServer, sinkDkimAudit, startRelayDelivery, type RelayDelivery } from '../emails/delivery-support.ts';
import { addContact, journeyTeam, makeJourney, startRunner, type Json } from './support.ts';

const HOUR = 3600_000;
let rd: RelayDelivery;
let runner: Awaited<ReturnType<typeof startRunner>>;

beforeAll(async () => {
  rd = await startRelayDelivery();
  // The relay delivery's own runner sends the emails to the sink.
  runner = await startRunner(rd.h, { delivery: false });
}, 120_000);
afterAll(async () => {
  await runner.runner.stop();
  await rd.close();
});

it(
  'delivers both emails of a journey to the sink, personalised, and completes the run',
  { timeout: 90_000 },
  async () => {
    const { h, sink } = rd;
    const team = await journeyTeam(h);
    const audit = sinkDkimAudit(h, sink, harnessDnsServer(h), () => [team.id]);
    const j = await makeJourney(team, {}, 'ACTIVE');
    const contactId = await addContact(team, {
      email: 'grace@example.test',
      firstName: 'Grace',
      lastName: 'Hopper',
      properties: { plan: 'navy' },
    });
    expect((await team.call('POST', `/v1/journeys/${j.id}/enroll`, { contactId })).status).toBe(201);
    const runOf = async () => ((await team.call('GET', `/v1/journeys/${j.id}/runs`)).body.data as Json[])[0]!;
    const emailIdsOf = (run: Json) =>
      (run.history as Json[]).filter((entry) => entry.type === 'EMAIL').map((entry) => entry.emailId as string);
    const delivered = async (emailId: string) => {
      await expect.poll(() => rd.messagesOf(emailId).length, { timeout: 20_000, interval: 20 }).toBe(1);
      const [message] = rd.messagesOf(emailId);
      expect(message!.envelope.to).toEqual(['grace@example.test']);
      return simpleParser(message!.raw);
    };

    await runner.drain();
    const waiting = await runOf();
    expect(waiting).toMatchObject({ status: 'ACTIVE', currentStepIndex: 2 });
    const first = await delivered(emailIdsOf(waiting)[0]!);
    expect(first.subject).toBe('Hi Grace');
    expect(first.html).toContain('Hello Grace Hopper on navy (grace@example.test)');

    h.t.clock.advance(HOUR);
    await runner.drain();
    const done = await runOf();
    expect(done).toMatchObject({ status: 'COMPLETED', currentStepIndex: 3, exitReason: null });
    const ids = emailIdsOf(done);
    expect(ids).toHaveLength(2);
    const second = await delivered(ids[1]!);
    expect(second.subject).toBe('Again, Grace');
    expect(second.html).toContain('Hello Grace Hopper on navy (grace@example.test)');
    // Still one copy of the first: the second turn did not send it again.
    expect(rd.messagesOf(ids[0]!)).toHaveLength(1);
    expect(await audit()).toBe(2);
    expect((await team.call('GET', `/v1/journeys/${j.id}`)).body.stats).toEqual({
      enrolled: 1,
      active: 0,
      completed: 1,
      exited: 0,
      failed: 0,
      sentByStep: { welcome: 1, followup: 1 },
    });
  },
);
