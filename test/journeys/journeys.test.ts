// Journeys through HTTP against the real database: the create/change rules, the status transitions,
// the enrolment rule table, a run from enrolment to COMPLETED with the clock moved over its WAIT,
// every exit, pause and resume, CONTACT_ADDED enrolment, the book and segment protections, stats,
// cross-team 404 and the access of each endpoint.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmailHarness, type EmailHarness } from '../emails/support.ts';
import { adminRequest } from '../support/factory.ts';
import { definition } from '../segments/helpers.ts';
import {
  addContact,
  client,
  journeyTeam,
  journeyWebhook,
  makeJourney,
  startRunner,
  steps,
  type Json,
  type JourneyTeam,
} from './support.ts';

let h: EmailHarness;
let team: JourneyTeam;
let other: JourneyTeam;
let runner: Awaited<ReturnType<typeof startRunner>>;

beforeAll(async () => {
  h = await startEmailHarness();
  [team, other] = [await journeyTeam(h), await journeyTeam(h)];
  runner = await startRunner(h);
}, 120_000);
afterAll(async () => {
  await runner.runner.stop();
  await h.close();
});

const HOUR = 3600_000;
const run = (team: JourneyTeam, journeyId: string, body: Json) =>
  team.call('POST', `/v1/journeys/${journeyId}/enroll`, body);
const journey = async (id: string) => (await team.call('GET', `/v1/journeys/${id}`)).body;
const runsOf = async (id: string, query = '') => (await team.call('GET', `/v1/journeys/${id}/runs${query}`)).body;
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

describe('create and change', () => {
  it('creates a DRAFT journey with zero stats; lists newest first; reads it back', async () => {
    const first = await makeJourney(team, { name: 'First' });
    expect(first).toMatchObject({
      name: 'First',
      status: 'DRAFT',
      triggerType: 'API',
      contactBookId: team.bookId,
      segmentId: null,
      exitWhenLeavesSegment: false,
      stats: { enrolled: 0, active: 0, completed: 0, exited: 0, failed: 0, sentByStep: {} },
    });
    expect(first.steps).toHaveLength(3);
    h.t.clock.advance(1);
    const second = await makeJourney(team, { name: 'Second' });
    const list = (await team.call('GET', '/v1/journeys')).body as Json[];
    expect(list.map((j) => j.id).indexOf(second.id)).toBeLessThan(list.map((j) => j.id).indexOf(first.id));
    expect((await team.call('GET', `/v1/journeys/${first.id}`)).body).toEqual(first);
  });

  it('checks steps: 1 to 50, unique ids, WAIT 1 to 31,536,000 seconds, known templates, verified from', async () => {
    const create = (fields: Json) =>
      team.call('POST', '/v1/journeys', { name: 'x', triggerType: 'API', contactBookId: team.bookId, ...fields });
    const wait = (id: string, seconds: number) => ({ id, type: 'WAIT', seconds });
    expect((await create({ steps: [] })).status).toBe(400);
    const fifty = Array.from({ length: 50 }, (_, i) => wait(`w${i}`, 1));
    expect((await create({ steps: fifty })).status).toBe(201);
    const tooMany = await create({ steps: [...fifty, wait('w50', 1)] });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.error.message).toContain('steps');
    const twice = await create({ steps: [wait('a', 1), wait('a', 2)] });
    expect(twice.status).toBe(400);
    expect(twice.body.error.message).toContain('steps.1.id');
    expect((await create({ steps: [wait('a', 0)] })).status).toBe(400);
    expect((await create({ steps: [wait('a', 31_536_000)] })).status).toBe(201);
    expect((await create({ steps: [wait('a', 31_536_001)] })).status).toBe(400);
    const noTemplate = await create({ steps: [{ id: 'e', type: 'EMAIL', templateId: 'tpl_none', from: team.from() }] });
    expect(noTemplate.status).toBe(400);
    expect(noTemplate.body.error.message).toContain('steps[0].templateId');
    const otherTemplate = await create({
      steps: [{ id: 'e', type: 'EMAIL', templateId: other.templateId, from: team.from() }],
    });
    expect(otherTemplate.status).toBe(400);
    const badFrom = await create({
      steps: [{ id: 'e', type: 'EMAIL', templateId: team.templateId, from: 'me@unverified.test' }],
    });
    expect(badFrom.status).toBe(400);
    expect(badFrom.body.error.message).toContain('steps[0].from');
    expect((await create({ steps: [{ id: 'x', type: 'SMS' }] })).status).toBe(400);
  });

  it('checks the fields: name at most 200, the book, the segment of that book, the trigger', async () => {
    const base = { name: 'x', triggerType: 'API', contactBookId: team.bookId, steps: steps(team) };
    const create = (fields: Json) => team.call('POST', '/v1/journeys', { ...base, ...fields });
    expect((await create({ name: 'n'.repeat(200) })).status).toBe(201);
    expect((await create({ name: 'n'.repeat(201) })).status).toBe(400);
    const noBook = await create({ contactBookId: other.bookId });
    expect(noBook.status).toBe(400);
    expect(noBook.body.error.message).toContain('contactBookId');
    const noSegment = await create({ segmentId: 'seg_none' });
    expect(noSegment.status).toBe(400);
    expect(noSegment.body.error.message).toContain('segmentId');
    expect((await create({ triggerType: 'LATER' })).status).toBe(400);
    expect((await create({ exitWhenLeavesSegment: true })).status).toBe(400);
    const { steps: _, ...withoutSteps } = base;
    expect((await team.call('POST', '/v1/journeys', withoutSteps)).status).toBe(400);
  });

  it('moves DRAFT, ACTIVE, PAUSED and ARCHIVED only as the table says; steps change only while DRAFT or PAUSED', async () => {
    const j = await makeJourney(team);
    const status = (s: string) => team.call('POST', `/v1/journeys/${j.id}/status`, { status: s });
    const patch = (body: Json) => team.call('PATCH', `/v1/journeys/${j.id}`, body);
    expect((await status('PAUSED')).status).toBe(400);
    expect((await patch({ steps: steps(team, 60) })).status).toBe(200);
    expect((await status('ACTIVE')).body.status).toBe('ACTIVE');
    expect((await status('ACTIVE')).status).toBe(200); // already so: no change
    expect((await patch({ steps: steps(team, 60) })).status).toBe(400);
    expect((await patch({ name: 'Renamed while active' })).body.name).toBe('Renamed while active');
    expect((await team.call('DELETE', `/v1/journeys/${j.id}`)).status).toBe(400);
    expect((await status('PAUSED')).body.status).toBe('PAUSED');
    expect((await patch({ steps: steps(team, 120) })).body.steps[1].seconds).toBe(120);
    expect((await team.call('DELETE', `/v1/journeys/${j.id}`)).status).toBe(400);
    expect((await status('ACTIVE')).body.status).toBe('ACTIVE');
    expect((await status('ARCHIVED')).body.status).toBe('ARCHIVED');
    for (const next of ['ACTIVE', 'PAUSED', 'ARCHIVED']) expect((await status(next)).status).toBe(400);
    expect((await patch({ name: 'late' })).status).toBe(400);
    expect((await status('DRAFT')).status).toBe(400);
    expect((await team.call('DELETE', `/v1/journeys/${j.id}`)).body).toEqual({ id: j.id, deleted: true });
    expect((await team.call('GET', `/v1/journeys/${j.id}`)).status).toBe(404);
    const draft = await makeJourney(team);
    expect((await team.call('DELETE', `/v1/journeys/${draft.id}`)).status).toBe(200);
  });
});

describe('enrolment rules', () => {
  it('answers every rule of the contract', async () => {
    const draft = await makeJourney(team);
    const contactId = await addContact(team, { email: 'rules@example.test', firstName: 'Rule' });
    expect((await run(team, draft.id, {})).status).toBe(400);
    expect((await run(team, draft.id, { contactId, email: 'rules@example.test' })).status).toBe(400);
    expect((await run(team, 'jrn_missing', { contactId })).status).toBe(404);
    expect((await run(team, draft.id, { contactId })).status).toBe(400); // DRAFT

    const active = await makeJourney(team, {}, 'ACTIVE');
    const first = await run(team, active.id, { contactId });
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    expect(first.body).toMatchObject({
      journeyId: active.id,
      contactId,
      status: 'ACTIVE',
      currentStepIndex: 0,
      exitReason: null,
    });
    const again = await run(team, active.id, { contactId });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('NOT_UNIQUE');

    // By email: found in the book, or added to it.
    const byEmail = await run(team, active.id, { email: '  New.Person@Example.test ' });
    expect(byEmail.status, JSON.stringify(byEmail.body)).toBe(201);
    const found = await team.call('GET', `/v1/contactBooks/${team.bookId}/contacts?emails=new.person@example.test`);
    expect(found.body[0].id).toBe(byEmail.body.contactId);
    expect((await run(team, active.id, { email: 'new.person@example.test' })).body.error.code).toBe('NOT_UNIQUE');
    expect((await run(team, active.id, { contactId: 'ct_missing' })).status).toBe(400);
    expect((await journey(active.id)).stats).toMatchObject({ enrolled: 2, active: 2 });

    const archived = await makeJourney(team, {}, 'ARCHIVED');
    expect((await run(team, archived.id, { contactId })).status).toBe(400);
  });

  it('refuses a contact of a double opt-in book that has not confirmed, and a book that no longer exists', async () => {
    const book = await team.call('POST', '/v1/contactBooks', { name: 'Opt-in', doubleOptInEnabled: true });
    const j = await makeJourney(team, { contactBookId: book.body.id }, 'ACTIVE');
    const unconfirmed = await run(team, j.id, { email: 'waiting@example.test' });
    expect(unconfirmed.status).toBe(400);
    expect(unconfirmed.body.error.message).toContain('confirmed');
    expect((await team.call('POST', `/v1/journeys/${j.id}/status`, { status: 'PAUSED' })).status).toBe(200);
    expect((await team.call('DELETE', `/v1/contactBooks/${book.body.id}`)).status).toBe(200);
    const gone = await run(team, j.id, { email: 'late@example.test' });
    expect(gone.status).toBe(400);
    expect(gone.body.error.message).toContain('no longer exists');
  });

  it('409 NOT_IN_SEGMENT outside the segment; an email enrolment still adds the address to the book', async () => {
    const segment = await team.call('POST', `/v1/contactBooks/${team.bookId}/segments`, {
      name: 'Pro plan',
      definition: definition([{ type: 'property', key: 'plan', op: 'equals', value: 'pro' }]),
    });
    expect(segment.status, JSON.stringify(segment.body)).toBe(201);
    const j = await makeJourney(team, { segmentId: segment.body.id }, 'ACTIVE');
    const pro = await addContact(team, { email: 'pro@example.test', properties: { plan: 'pro' } });
    const free = await addContact(team, { email: 'free@example.test', properties: { plan: 'free' } });
    expect((await run(team, j.id, { contactId: pro })).status).toBe(201);
    const outside = await run(team, j.id, { contactId: free });
    expect(outside.status).toBe(409);
    expect(outside.body.error.code).toBe('NOT_IN_SEGMENT');
    const byEmail = await run(team, j.id, { email: 'stranger@example.test' });
    expect(byEmail.body.error.code).toBe('NOT_IN_SEGMENT');
    const added = await team.call('GET', `/v1/contactBooks/${team.bookId}/contacts?emails=stranger@example.test`);
    expect(added.body).toHaveLength(1);
  });
});

describe('running', () => {
  it('EMAIL, WAIT, EMAIL: both emails queued personalised, the wait on the clock, then COMPLETED', async () => {
    const j = await makeJourney(team, {}, 'ACTIVE');
    const contactId = await addContact(team, {
      email: 'ada@example.test',
      firstName: 'Ada',
      lastName: 'Lovelace',
      properties: { plan: 'gold' },
    });
    const enrolled = await run(team, j.id, { contactId });
    expect(enrolled.status).toBe(201);
    await runner.drain();
    let [current] = (await runsOf(j.id)).data as Json[];
    expect(current).toMatchObject({ status: 'ACTIVE', currentStepIndex: 2 });
    expect(new Date(current!.nextRunAt).getTime()).toBe(h.t.clock.now().getTime() + HOUR);
    let sent = await emailsTo('ada@example.test');
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ subject: 'Hi Ada', api_key_id: 'system:journey' });
    expect(sent[0]!.html).toContain('Hello Ada Lovelace on gold (ada@example.test)');
    expect((await journey(j.id)).stats).toMatchObject({ active: 1, sentByStep: { welcome: 1 } });

    h.t.clock.advance(HOUR - 1000);
    await runner.drain();
    expect(await emailsTo('ada@example.test')).toHaveLength(1); // not yet
    h.t.clock.advance(1000);
    await runner.drain();
    [current] = (await runsOf(j.id)).data as Json[];
    expect(current).toMatchObject({ status: 'COMPLETED', currentStepIndex: 3, exitReason: null });
    sent = await emailsTo('ada@example.test');
    expect(sent.map((e) => e.subject)).toEqual(['Hi Ada', 'Again, Ada']);
    expect(current!.history.filter((e: Json) => e.type === 'EMAIL').map((e: Json) => e.emailId)).toEqual(
      sent.map((e) => e.id),
    );
    expect((await journey(j.id)).stats).toEqual({
      enrolled: 1,
      active: 0,
      completed: 1,
      exited: 0,
      failed: 0,
      sentByStep: { welcome: 1, followup: 1 },
    });
    expect((await runsOf(j.id, '?status=COMPLETED')).data).toHaveLength(1);
    expect((await runsOf(j.id, '?status=ACTIVE')).data).toHaveLength(0);
  });

  it('exits before the next email: UNSUBSCRIBED, CONTACT_DELETED; stats add up', async () => {
    const j = await makeJourney(team, {}, 'ACTIVE');
    const quitter = await addContact(team, { email: 'quit@example.test' });
    const deleted = await addContact(team, { email: 'gone@example.test' });
    const finisher = await addContact(team, { email: 'finish@example.test' });
    for (const contactId of [quitter, deleted, finisher])
      expect((await run(team, j.id, { contactId })).status).toBe(201);
    await runner.drain(); // all three got the first email
    await team.call('PATCH', `/v1/contactBooks/${team.bookId}/contacts/${quitter}`, { subscribed: false });
    await team.call('DELETE', `/v1/contactBooks/${team.bookId}/contacts/${deleted}`);
    h.t.clock.advance(HOUR);
    await runner.drain();
    const runs = (await runsOf(j.id)).data as Json[];
    const byContact = Object.fromEntries(runs.map((r) => [r.contactId, r]));
    expect(byContact[quitter]).toMatchObject({ status: 'EXITED', exitReason: 'UNSUBSCRIBED' });
    expect(byContact[deleted]).toMatchObject({ status: 'EXITED', exitReason: 'CONTACT_DELETED' });
    expect(byContact[finisher]).toMatchObject({ status: 'COMPLETED' });
    expect((await journey(j.id)).stats).toEqual({
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
    expect((await run(team, j.id, { contactId: refused })).status).toBe(201);
    await runner.drain();
    expect((await team.call('DELETE', `/v1/templates/${template.body.id}`)).status).toBe(200);
    h.t.clock.advance(60_000);
    await runner.drain();
    const [failed] = (await runsOf(j.id)).data as Json[];
    expect(failed).toMatchObject({ status: 'EXITED', exitReason: 'SEND_FAILED' });
    expect(failed!.history.at(-1).note).toContain('send refused');

    const waiting = await makeJourney(team, {}, 'ACTIVE');
    const w = await addContact(team, { email: 'waiter@example.test' });
    await run(team, waiting.id, { contactId: w });
    await runner.drain();
    await team.call('POST', `/v1/journeys/${waiting.id}/status`, { status: 'ARCHIVED' });
    const [archivedRun] = (await runsOf(waiting.id)).data as Json[];
    expect(archivedRun).toMatchObject({ status: 'EXITED', exitReason: 'JOURNEY_ARCHIVED' });
    expect((await journey(waiting.id)).stats).toMatchObject({ active: 0, exited: 1, sentByStep: { welcome: 1 } });
  });

  it('exitWhenLeavesSegment: a contact who stops matching exits before its next email, exitReason null', async () => {
    const segment = await team.call('POST', `/v1/contactBooks/${team.bookId}/segments`, {
      name: 'Trial',
      definition: definition([{ type: 'property', key: 'plan', op: 'equals', value: 'trial' }]),
    });
    const j = await makeJourney(team, { segmentId: segment.body.id, exitWhenLeavesSegment: true }, 'ACTIVE');
    const contactId = await addContact(team, { email: 'trial@example.test', properties: { plan: 'trial' } });
    expect((await run(team, j.id, { contactId })).status).toBe(201);
    await runner.drain();
    await team.call('PATCH', `/v1/contactBooks/${team.bookId}/contacts/${contactId}`, { properties: { plan: 'paid' } });
    h.t.clock.advance(HOUR);
    await runner.drain();
    const [left] = (await runsOf(j.id)).data as Json[];
    expect(left).toMatchObject({ status: 'EXITED', exitReason: null });
    expect(left!.history.at(-1).note).toContain('left the segment');
    expect(await emailsTo('trial@example.test')).toHaveLength(1);
  });

  it('a PAUSED journey holds its runs; they go on when it is ACTIVE again', async () => {
    const j = await makeJourney(team, {}, 'ACTIVE');
    const contactId = await addContact(team, { email: 'held@example.test' });
    await team.call('POST', `/v1/journeys/${j.id}/status`, { status: 'PAUSED' });
    expect((await run(team, j.id, { contactId })).status).toBe(201); // PAUSED still enrols
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
    const doneRun = (await run(t, j.id, { contactId: done })).body;
    await run(t, j.id, { contactId: quits });
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

describe('CONTACT_ADDED', () => {
  it('enrols contacts added while ACTIVE: single, bulk, CSV import and upsert; not while PAUSED', async () => {
    const t = await journeyTeam(h);
    const j = await makeJourney(t, { triggerType: 'CONTACT_ADDED' }, 'ACTIVE');
    await addContact(t, { email: 'one@example.test' });
    const bulk = await t.call('POST', `/v1/contactBooks/${t.bookId}/contacts/bulk`, [
      { email: 'two@example.test' },
      { email: 'three@example.test' },
    ]);
    expect(bulk.status).toBe(200);
    await adminRequest(h.app, 'POST', `/teams/${t.id}/contact-books/${t.bookId}/contacts/import`, {
      contacts: [{ email: 'four@example.test' }],
    });
    expect(
      (await t.call('PUT', `/v1/contactBooks/${t.bookId}/contacts/ct_new`, { email: 'five@example.test' })).status,
    ).toBe(200);
    // An update of a contact already there enrols nobody again.
    await t.call('POST', `/v1/contactBooks/${t.bookId}/contacts/bulk`, [{ email: 'one@example.test', firstName: 'O' }]);
    // Each addition was recorded with the contacts; the enrolment queue made the runs.
    await runner.drain();
    expect((await t.call('GET', `/v1/journeys/${j.id}`)).body.stats).toMatchObject({ enrolled: 5 });
    expect(await h.t.deps.db.selectFrom('journey_enrolments').select('id').execute()).toEqual([]);
    await t.call('POST', `/v1/journeys/${j.id}/status`, { status: 'PAUSED' });
    await addContact(t, { email: 'six@example.test' });
    await runner.drain();
    expect((await t.call('GET', `/v1/journeys/${j.id}`)).body.stats.enrolled).toBe(5);
  });

  it('enrols a double opt-in contact when it confirms', async () => {
    const t = await journeyTeam(h, { doubleOptInEnabled: true });
    const j = await makeJourney(t, { triggerType: 'CONTACT_ADDED' }, 'ACTIVE');
    const contactId = await addContact(t, { email: 'later@example.test' });
    await runner.drain();
    expect((await t.call('GET', `/v1/journeys/${j.id}`)).body.stats.enrolled).toBe(0);
    const { confirmContact } = await import('../../src/contacts/confirmation-queries.ts');
    expect(await confirmContact(h.t.deps.db, t.id, contactId, h.t.clock.now())).toBe('confirmed');
    await runner.drain();
    expect((await t.call('GET', `/v1/journeys/${j.id}`)).body.stats.enrolled).toBe(1);
  });
});

describe('protections and the journey segment condition', () => {
  it('a segment used by an ACTIVE journey is renamed but not redefined or deleted; its book is not deleted', async () => {
    const t = await journeyTeam(h);
    const seg = await t.call('POST', `/v1/contactBooks/${t.bookId}/segments`, {
      name: 'All',
      definition: definition([{ type: 'email', op: 'contains', value: '@' }]),
    });
    const j = await makeJourney(t, { segmentId: seg.body.id }, 'ACTIVE');
    const path = `/v1/contactBooks/${t.bookId}/segments/${seg.body.id}`;
    expect((await t.call('PATCH', path, { name: 'Everyone' })).status).toBe(200);
    const redefine = await t.call('PATCH', path, {
      definition: definition([{ type: 'email', op: 'contains', value: 'x' }]),
    });
    expect(redefine.status).toBe(400);
    expect((await t.call('DELETE', path)).status).toBe(400);
    const deleteBook = await t.call('DELETE', `/v1/contactBooks/${t.bookId}`);
    expect(deleteBook.status).toBe(400);
    expect(deleteBook.body.error.message).toContain('active journey');
    await t.call('POST', `/v1/journeys/${j.id}/status`, { status: 'PAUSED' });
    expect((await t.call('DELETE', path)).status).toBe(200);
    expect((await t.call('DELETE', `/v1/contactBooks/${t.bookId}`)).status).toBe(200);
  });

  it('journey conditions read runs: is_in, completed, exited, not_in', async () => {
    const t = await journeyTeam(h);
    const j = await makeJourney(t, { steps: [{ id: 'w', type: 'WAIT', seconds: 1 }] }, 'ACTIVE');
    const inIt = await addContact(t, { email: 'in@example.test' });
    await addContact(t, { email: 'out@example.test' });
    await run(t, j.id, { contactId: inIt });
    const count = async (op: string) =>
      (
        await t.call('POST', `/v1/contactBooks/${t.bookId}/segments`, {
          name: `${op}-${h.t.clock.now().getTime()}`,
          definition: definition([{ type: 'journey', op, journeyId: j.id }]),
        })
      ).body.count;
    expect(await count('is_in')).toBe(1);
    expect(await count('not_in')).toBe(1);
    expect(await count('completed')).toBe(0);
    await runner.drain();
    h.t.clock.advance(1000);
    await runner.drain();
    expect(await count('completed')).toBe(1);
    expect(await count('is_in')).toBe(0);
    expect(await count('exited')).toBe(0);
  });
});

describe('tenancy and access', () => {
  it("another team's journey is 404 on every endpoint", async () => {
    const j = await makeJourney(team, {}, 'ACTIVE');
    const contactId = await addContact(other, { email: 'x@example.test' });
    expect((await other.call('GET', `/v1/journeys/${j.id}`)).status).toBe(404);
    expect((await other.call('PATCH', `/v1/journeys/${j.id}`, { name: 'mine' })).status).toBe(404);
    expect((await other.call('POST', `/v1/journeys/${j.id}/status`, { status: 'PAUSED' })).status).toBe(404);
    expect((await other.call('POST', `/v1/journeys/${j.id}/enroll`, { contactId })).status).toBe(404);
    expect((await other.call('GET', `/v1/journeys/${j.id}/runs`)).status).toBe(404);
    expect((await other.call('DELETE', `/v1/journeys/${j.id}`)).status).toBe(404);
    expect(((await other.call('GET', '/v1/journeys')).body as Json[]).map((x) => x.id)).not.toContain(j.id);
    // A contact of another team is not enrolled.
    expect((await run(team, j.id, { contactId })).status).toBe(400);
  });

  it('enrol takes a sending or full key; everything else a full key', async () => {
    const j = await makeJourney(team, {}, 'ACTIVE');
    const sending = client(h, (await team.makeKey('sending')).key);
    const readonly = client(h, (await team.makeKey('readonly')).key);
    const contactId = await addContact(team, { email: 'access@example.test' });
    expect((await readonly('POST', `/v1/journeys/${j.id}/enroll`, { contactId })).status).toBe(403);
    expect((await sending('POST', `/v1/journeys/${j.id}/enroll`, { contactId })).status).toBe(201);
    for (const [method, path, body] of [
      ['GET', '/v1/journeys', undefined],
      ['GET', `/v1/journeys/${j.id}`, undefined],
      ['GET', `/v1/journeys/${j.id}/runs`, undefined],
      ['POST', '/v1/journeys', { name: 'x' }],
      ['PATCH', `/v1/journeys/${j.id}`, { name: 'x' }],
      ['POST', `/v1/journeys/${j.id}/status`, { status: 'PAUSED' }],
      ['DELETE', `/v1/journeys/${j.id}`, undefined],
    ] as const) {
      expect((await sending(method, path, body)).status, `${method} ${path}`).toBe(403);
      expect((await readonly(method, path, body)).status, `${method} ${path}`).toBe(403);
    }
  });

  it('pages runs newest first with a signed cursor', async () => {
    const j = await makeJourney(team, {}, 'ACTIVE');
    for (let i = 0; i < 3; i++) {
      const contactId = await addContact(team, { email: `page${i}@example.test` });
      await run(team, j.id, { contactId });
      h.t.clock.advance(1);
    }
    const first = await runsOf(j.id, '?limit=2');
    expect(first.data).toHaveLength(2);
    const second = await runsOf(j.id, `?limit=2&cursor=${first.nextCursor}`);
    expect(second.data).toHaveLength(1);
    expect(second.nextCursor).toBeNull();
    expect((await team.call('GET', `/v1/journeys/${j.id}/runs?limit=101`)).status).toBe(400);
    expect((await team.call('GET', `/v1/journeys/${j.id}/runs?limit=0`)).status).toBe(400);
  });
});
