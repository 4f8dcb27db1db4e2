// Runs through the runner: EMAIL, WAIT, EMAIL to COMPLETED with the clock moved over the WAIT, every
// exit before the next email, pause and resume, and the journey.run.* events a webhook receives.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EmailHarness } from '../emails/support.ts';
import { definition } from '../segments/helpers.ts';
import {
  addContact,
  enrol,
  journeyTeam,
  journeyWebhook,
  makeJourney,
  readJourney,
  readRuns,
  startJourneySuite,
  type Json,
  type JourneyRunner,
  type JourneyTeam,
} from './support.ts';

let h: EmailHarness, team: JourneyTeam, runner: JourneyRunner, close: () => Promise<void>;
beforeAll(async () => void ({ h, team, runner, close } = await startJourneySuite()), 120_000);
afterAll(() => close());

const HOUR = 3600_000;

const emailsTo = async (address: string) =>
  (
    await h.t.deps.db
      .selectFrom('emails')
      .select(['id', 'subject', 'html', 'api_key_id', 'to'])
      .where('team_id', '=', team.id)
      .orderBy('created_at')
      .orderBy('id')
      .execute()
  )
    .filter((email) => JSON.stringify(email.to).includes(address))
    .map(({ to: _, ...email }) => email);

describe('running', () => {
  it('EMAIL, WAIT, EMAIL: both emails queued personalised, the wait on the clock, then COMPLETED', async () => {
    const j = await makeJourney(team, {}, 'ACTIVE');
    const contactId = await addContact(team, {
      email: 'ada@example.test',
      firstName: 'Ada',
      lastName: 'Lovelace',
      properties: { plan: 'gold' },
    });
    const enrolled = await enrol(team, j.id, { contactId });
    expect(enrolled.status).toBe(201);
    await runner.drain();
    let [current] = (await readRuns(team, j.id)).data as Json[];
    expect(current).toMatchObject({ status: 'ACTIVE', currentStepIndex: 2 });
    expect(new Date(current!.nextRunAt).getTime()).toBe(h.t.clock.now().getTime() + HOUR);
    let sent = await emailsTo('ada@example.test');
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ subject: 'Hi Ada', api_key_id: 'system:journey' });
    expect(sent[0]!.html).toContain('Hello Ada Lovelace on gold (ada@example.test)');
    expect((await readJourney(team, j.id)).stats).toMatchObject({ active: 1, sentByStep: { welcome: 1 } });

    h.t.clock.advance(HOUR - 1000);
    await runner.drain();
    expect(await emailsTo('ada@example.test')).toHaveLength(1); // not yet
    h.t.clock.advance(1000);
    await runner.drain();
    [current] = (await readRuns(team, j.id)).data as Json[];
    expect(current).toMatchObject({ status: 'COMPLETED', currentStepIndex: 3, exitReason: null });
    sent = await emailsTo('ada@example.test');
    expect(sent.map((e) => e.subject)).toEqual(['Hi Ada', 'Again, Ada']);
    expect(current!.history.filter((e: Json) => e.type === 'EMAIL').map((e: Json) => e.emailId)).toEqual(
      sent.map((e) => e.id),
    );
    expect((await readJourney(team, j.id)).stats).toEqual({
      enrolled: 1,
      active: 0,
      completed: 1,
      exited: 0,
      failed: 0,
      sentByStep: { welcome: 1, followup: 1 },
    });
    expect((await readRuns(team, j.id, '?status=COMPLETED')).data).toHaveLength(1);
    expect((await readRuns(team, j.id, '?status=ACTIVE')).data).toHaveLength(0);
  });

  it('exits before the next email: UNSUBSCRIBED, CONTACT_DELETED; stats add up', async () => {
    const j = await makeJourney(team, {}, 'ACTIVE');
    const quitter = await addContact(team, { email: 'quit@example.test' });
    const deleted = await addContact(team, { email: 'gone@example.test' });
    const finisher = await addContact(team, { email: 'finish@example.test' });
    for (const contactId of [quitter, deleted, finisher])
      expect((await enrol(team, j.id, { contactId })).status).toBe(201);
    await runner.drain(); // all three got the first email
    await team.call('PATCH', `/v1/contactBooks/${team.bookId}/contacts/${quitter}`, { subscribed: false });
    await team.call('DELETE', `/v1/contactBooks/${team.bookId}/contacts/${deleted}`);
    h.t.clock.advance(HOUR);
    await runner.drain();
    const runs = (await readRuns(team, j.id)).data as Json[];
    const byContact = Object.fromEntries(runs.map((r) => [r.contactId, r]));
    expect(byContact[quitter]).toMatchObject({ status: 'EXITED', exitReason: 'UNSUBSCRIBED' });
    expect(byContact[deleted]).toMatchObject({ status: 'EXITED', exitReason: 'CONTACT_DELETED' });
    expect(byContact[finisher]).toMatchObject({ status: 'COMPLETED' });
    expect((await readJourney(team, j.id)).stats).toEqual({
      enrolled: 3,
      active: 0,
      completed: 1,
      exited: 2,
      failed: 0,
      sentByStep: { welcome: 3, followup: 1 },
    });
  });

  it('SEND_FAILED when the send is refused (template deleted), JOURNEY_ARCHIVED for runs still waiting', async () => {
    const template = await team.call('POST', '/v1/templates', {
      name: 'Short-lived',
      subject: 'Soon gone',
      type: 'TRANSACTIONAL',
      html: '<p>x</p>',
    });
    const j = await makeJourney(
      team,
      {
        steps: [
          { id: 'wait', type: 'WAIT', seconds: 60 },
          { id: 'mail', type: 'EMAIL', templateId: template.body.id, from: team.from() },
        ],
      },
      'ACTIVE',
    );
    const refused = await addContact(team, { email: 'refused@example.test' });
    expect((await enrol(team, j.id, { contactId: refused })).status).toBe(201);
    await runner.drain();
    expect((await team.call('DELETE', `/v1/templates/${template.body.id}`)).status).toBe(200);
    h.t.clock.advance(60_000);
    await runner.drain();
    const [failed] = (await readRuns(team, j.id)).data as Json[];
    expect(failed).toMatchObject({ status: 'EXITED', exitReason: 'SEND_FAILED' });
    expect(failed!.history.at(-1).note).toContain('send refused');

    const waiting = await makeJourney(team, {}, 'ACTIVE');
    const w = await addContact(team, { email: 'waiter@example.test' });
    await enrol(team, waiting.id, { contactId: w });
    await runner.drain();
    await team.call('POST', `/v1/journeys/${waiting.id}/status`, { status: 'ARCHIVED' });
    const [archivedRun] = (await readRuns(team, waiting.id)).data as Json[];
    expect(archivedRun).toMatchObject({ status: 'EXITED', exitReason: 'JOURNEY_ARCHIVED' });
    expect((await readJourney(team, waiting.id)).stats).toMatchObject({
      active: 0,
      exited: 1,
      sentByStep: { welcome: 1 },
    });
  });

  it('exitWhenLeavesSegment: a contact who stops matching exits before its next email, exitReason null', async () => {
    const segment = await team.call('POST', `/v1/contactBooks/${team.bookId}/segments`, {
      name: 'Trial',
      definition: definition([{ type: 'property', key: 'plan', op: 'equals', value: 'trial' }]),
    });
    const j = await makeJourney(team, { segmentId: segment.body.id, exitWhenLeavesSegment: true }, 'ACTIVE');
    const contactId = await addContact(team, { email: 'trial@example.test', properties: { plan: 'trial' } });
    expect((await enrol(team, j.id, { contactId })).status).toBe(201);
    await runner.drain();
    await team.call('PATCH', `/v1/contactBooks/${team.bookId}/contacts/${contactId}`, { properties: { plan: 'paid' } });
    h.t.clock.advance(HOUR);
    await runner.drain();
    const [left] = (await readRuns(team, j.id)).data as Json[];
    expect(left).toMatchObject({ status: 'EXITED', exitReason: null });
    expect(left!.history.at(-1).note).toContain('left the segment');
    expect(await emailsTo('trial@example.test')).toHaveLength(1);
  });

  it('a PAUSED journey holds its runs; they go on when it is ACTIVE again', async () => {
    const j = await makeJourney(team, {}, 'ACTIVE');
    const contactId = await addContact(team, { email: 'held@example.test' });
    await team.call('POST', `/v1/journeys/${j.id}/status`, { status: 'PAUSED' });
    expect((await enrol(team, j.id, { contactId })).status).toBe(201); // PAUSED still enrols
    h.t.clock.advance(2 * HOUR);
    await runner.drain();
    expect(await emailsTo('held@example.test')).toHaveLength(0);
    await team.call('POST', `/v1/journeys/${j.id}/status`, { status: 'ACTIVE' });
    await runner.drain();
    expect(await emailsTo('held@example.test')).toHaveLength(1);
  });
});

describe('events', () => {
  it('records journey.run.completed and journey.run.exited for a subscribed webhook, with the run', async () => {
    const t = await journeyTeam(h);
    await journeyWebhook(h, t.id);
    const j = await makeJourney(t, { steps: [{ id: 'w', type: 'WAIT', seconds: 1 }] }, 'ACTIVE');
    const done = await addContact(t, { email: 'done@example.test' });
    const quits = await addContact(t, { email: 'quits@example.test' });
    const doneRun = (await enrol(t, j.id, { contactId: done })).body;
    await enrol(t, j.id, { contactId: quits });
    await runner.drain();
    h.t.clock.advance(1000);
    await t.call('DELETE', `/v1/contactBooks/${t.bookId}/contacts/${quits}`);
    await runner.drain();
    const calls = await h.t.deps.db
      .selectFrom('webhook_calls')
      .select(['type', 'payload'])
      .where('team_id', '=', t.id)
      .orderBy('type')
      .execute();
    expect(calls.map((c) => c.type)).toEqual(['journey.run.completed', 'journey.run.exited']);
    const payload = (c: (typeof calls)[number]) => (typeof c.payload === 'string' ? JSON.parse(c.payload) : c.payload);
    expect(payload(calls[0]!).data).toEqual({
      runId: doneRun.id,
      journeyId: j.id,
      contactId: done,
      status: 'COMPLETED',
      exitReason: null,
      currentStepIndex: 1,
    });
    expect(payload(calls[1]!).data).toMatchObject({
      contactId: quits,
      status: 'EXITED',
      exitReason: 'CONTACT_DELETED',
    });
  });
});
