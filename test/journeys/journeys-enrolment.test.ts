// Enrolment through HTTP: the contract's rule table for enrolling by contact or email, the double
// opt-in and segment conditions, and CONTACT_ADDED enrolment of contacts added while ACTIVE.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EmailHarness } from '../emails/support.ts';
import { adminRequest } from '../support/factory.ts';
import { definition } from '../segments/helpers.ts';
import {
  addContact,
  enrol,
  journeyTeam,
  makeJourney,
  readJourney,
  startJourneySuite,
  type JourneyRunner,
  type JourneyTeam,
} from './support.ts';

let h: EmailHarness, team: JourneyTeam, runner: JourneyRunner, close: () => Promise<void>;
beforeAll(async () => void ({ h, team, runner, close } = await startJourneySuite()), 120_000);
afterAll(() => close());

describe('enrolment rules', () => {
  it('answers every rule of the contract', async () => {
    const draft = await makeJourney(team);
    const contactId = await addContact(team, { email: 'rules@example.test', firstName: 'Rule' });
    expect((await enrol(team, draft.id, {})).status).toBe(400);
    expect((await enrol(team, draft.id, { contactId, email: 'rules@example.test' })).status).toBe(400);
    expect((await enrol(team, 'jrn_missing', { contactId })).status).toBe(404);
    expect((await enrol(team, draft.id, { contactId })).status).toBe(400); // DRAFT

    const active = await makeJourney(team, {}, 'ACTIVE');
    const first = await enrol(team, active.id, { contactId });
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    expect(first.body).toMatchObject({
      journeyId: active.id,
      contactId,
      status: 'ACTIVE',
      currentStepIndex: 0,
      exitReason: null,
    });
    const again = await enrol(team, active.id, { contactId });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('NOT_UNIQUE');

    // By email: found in the book, or added to it.
    const byEmail = await enrol(team, active.id, { email: '  New.Person@Example.test ' });
    expect(byEmail.status, JSON.stringify(byEmail.body)).toBe(201);
    const found = await team.call('GET', `/v1/contactBooks/${team.bookId}/contacts?emails=new.person@example.test`);
    expect(found.body[0].id).toBe(byEmail.body.contactId);
    expect((await enrol(team, active.id, { email: 'new.person@example.test' })).body.error.code).toBe('NOT_UNIQUE');
    expect((await enrol(team, active.id, { contactId: 'ct_missing' })).status).toBe(400);
    expect((await readJourney(team, active.id)).stats).toMatchObject({ enrolled: 2, active: 2 });

    const archived = await makeJourney(team, {}, 'ARCHIVED');
    expect((await enrol(team, archived.id, { contactId })).status).toBe(400);
  });

  it('refuses a contact of a double opt-in book that has not confirmed, and a book that no longer exists', async () => {
    const book = await team.call('POST', '/v1/contactBooks', { name: 'Opt-in', doubleOptInEnabled: true });
    const j = await makeJourney(team, { contactBookId: book.body.id }, 'ACTIVE');
    const unconfirmed = await enrol(team, j.id, { email: 'waiting@example.test' });
    expect(unconfirmed.status).toBe(400);
    expect(unconfirmed.body.error.message).toContain('confirmed');
    expect((await team.call('POST', `/v1/journeys/${j.id}/status`, { status: 'PAUSED' })).status).toBe(200);
    expect((await team.call('DELETE', `/v1/contactBooks/${book.body.id}`)).status).toBe(200);
    const gone = await enrol(team, j.id, { email: 'late@example.test' });
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
    expect((await enrol(team, j.id, { contactId: pro })).status).toBe(201);
    const outside = await enrol(team, j.id, { contactId: free });
    expect(outside.status).toBe(409);
    expect(outside.body.error.code).toBe('NOT_IN_SEGMENT');
    const byEmail = await enrol(team, j.id, { email: 'stranger@example.test' });
    expect(byEmail.body.error.code).toBe('NOT_IN_SEGMENT');
    const added = await team.call('GET', `/v1/contactBooks/${team.bookId}/contacts?emails=stranger@example.test`);
    expect(added.body).toHaveLength(1);
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
