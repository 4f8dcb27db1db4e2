// Exits at the moment of the event, in its transaction (no runner turn in between): every write that
// unsubscribes a contact (PATCH, PUT, bulk add, the CSV import's admin route, both unsubscribe links)
// and every write that deletes one (single, bulk, the book under a PAUSED journey) ends the contact's
// ACTIVE runs on every journey, with the counters and the journey.run.exited event. A write that
// leaves the contact subscribed ends nothing. Last, an unexpected error: FAILED with PROCESSING_ERROR.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contactUnsubscribeUrl, emailUnsubscribeUrl } from '../../src/contacts/index.ts';
import { startEmailHarness, type EmailHarness } from '../emails/support.ts';
import { adminRequest } from '../support/factory.ts';
import {
  addContact,
  journeyTeam,
  journeyWebhook,
  makeJourney,
  startRunner,
  type Json,
  type JourneyTeam,
} from './support.ts';

const HOUR = 3600_000;
let h: EmailHarness;
let runner: Awaited<ReturnType<typeof startRunner>>;

beforeAll(async () => {
  h = await startEmailHarness();
  runner = await startRunner(h);
}, 120_000);
afterAll(async () => {
  await runner.runner.stop();
  await h.close();
});

/** A team, an ACTIVE journey (EMAIL, WAIT an hour, EMAIL) and a contact at its WAIT after one email. */
async function waitingRun(email: string, team?: JourneyTeam) {
  const t = team ?? (await journeyTeam(h));
  const j = await makeJourney(t, {}, 'ACTIVE');
  const contactId = await addContact(t, { email });
  expect((await t.call('POST', `/v1/journeys/${j.id}/enroll`, { contactId })).status).toBe(201);
  await runner.drain();
  const [run] = (await t.call('GET', `/v1/journeys/${j.id}/runs`)).body.data as Json[];
  expect(run).toMatchObject({ status: 'ACTIVE', currentStepIndex: 2 });
  return { t, j, contactId, runId: run!.id as string };
}

/** The run as stored now: no runner turn has happened since the event (the clock did not move). */
async function runNow(t: JourneyTeam, journeyId: string) {
  const [run] = (await t.call('GET', `/v1/journeys/${journeyId}/runs`)).body.data as Json[];
  return run!;
}

async function expectExitedNow(t: JourneyTeam, journeyId: string, reason: string) {
  expect(await runNow(t, journeyId)).toMatchObject({ status: 'EXITED', exitReason: reason, currentStepIndex: 2 });
  expect((await t.call('GET', `/v1/journeys/${journeyId}`)).body.stats).toMatchObject({
    enrolled: 1,
    active: 0,
    exited: 1,
    sentByStep: { welcome: 1 },
  });
}

describe('unsubscribed: exits at once with UNSUBSCRIBED', () => {
  it('PATCH subscribed false; PATCH of another field or subscribed true ends nothing', async () => {
    const t = await journeyTeam(h);
    const events = await journeyWebhook(h, t.id);
    const { j, contactId, runId } = await waitingRun('patch@example.test', t);
    const contact = `/v1/contactBooks/${t.bookId}/contacts/${contactId}`;
    expect((await t.call('PATCH', contact, { firstName: 'Still' })).status).toBe(200);
    expect((await t.call('PATCH', contact, { subscribed: true })).status).toBe(200);
    expect(await runNow(t, j.id)).toMatchObject({ status: 'ACTIVE', exitReason: null });
    expect((await t.call('PATCH', contact, { subscribed: false })).status).toBe(200);
    await expectExitedNow(t, j.id, 'UNSUBSCRIBED');
    expect(await events('journey.run.exited')).toEqual([
      { runId, journeyId: j.id, contactId, status: 'EXITED', exitReason: 'UNSUBSCRIBED', currentStepIndex: 2 },
    ]);
  });

  it('PUT, bulk add and the CSV import route with subscribed false', async () => {
    const put = await waitingRun('put@example.test');
    const putPath = `/v1/contactBooks/${put.t.bookId}/contacts/${put.contactId}`;
    expect((await put.t.call('PUT', putPath, { subscribed: false })).status).toBe(200);
    await expectExitedNow(put.t, put.j.id, 'UNSUBSCRIBED');

    const bulk = await waitingRun('bulk@example.test');
    const added = await bulk.t.call('POST', `/v1/contactBooks/${bulk.t.bookId}/contacts/bulk`, [
      { email: 'bulk@example.test', subscribed: false },
      { email: 'bulk-new@example.test', subscribed: false },
    ]);
    expect(added.status).toBe(200);
    await expectExitedNow(bulk.t, bulk.j.id, 'UNSUBSCRIBED');

    const csv = await waitingRun('csv@example.test');
    // adminRequest throws on any answer but 2xx.
    await adminRequest(h.app, 'POST', `/teams/${csv.t.id}/contact-books/${csv.t.bookId}/contacts/import`, {
      contacts: [{ email: 'csv@example.test', subscribed: false }],
    });
    await expectExitedNow(csv.t, csv.j.id, 'UNSUBSCRIBED');
  });

  it('the unsubscribe links (contact and email recipient); every journey of the contact', async () => {
    const first = await waitingRun('link@example.test');
    const second = await makeJourney(first.t, { name: 'Second' }, 'ACTIVE');
    expect(
      (await first.t.call('POST', `/v1/journeys/${second.id}/enroll`, { contactId: first.contactId })).status,
    ).toBe(201);
    await runner.drain();
    const url = contactUnsubscribeUrl(h.t.deps.secrets, h.t.deps.config.publicUrl, {
      teamId: first.t.id,
      contactId: first.contactId,
    });
    const clicked = await h.app.inject({ method: 'POST', url: new URL(url).pathname });
    expect(clicked.statusCode).toBe(200);
    await expectExitedNow(first.t, first.j.id, 'UNSUBSCRIBED');
    await expectExitedNow(first.t, second.id, 'UNSUBSCRIBED');

    const byEmail = await waitingRun('recipient@example.test');
    const emailUrl = emailUnsubscribeUrl(h.t.deps.secrets, h.t.deps.config.publicUrl, {
      teamId: byEmail.t.id,
      emailId: 'em_journey_exit',
      recipient: 'Recipient@Example.test',
    });
    expect((await h.app.inject({ method: 'POST', url: new URL(emailUrl).pathname })).statusCode).toBe(200);
    await expectExitedNow(byEmail.t, byEmail.j.id, 'UNSUBSCRIBED');
  });

  it('a run of a PAUSED journey exits too; a contact of another team with the address is untouched', async () => {
    const mine = await waitingRun('paused@example.test');
    const theirs = await waitingRun('paused@example.test');
    expect((await mine.t.call('POST', `/v1/journeys/${mine.j.id}/status`, { status: 'PAUSED' })).status).toBe(200);
    const path = `/v1/contactBooks/${mine.t.bookId}/contacts/${mine.contactId}`;
    expect((await mine.t.call('PATCH', path, { subscribed: false })).status).toBe(200);
    await expectExitedNow(mine.t, mine.j.id, 'UNSUBSCRIBED');
    expect(await runNow(theirs.t, theirs.j.id)).toMatchObject({ status: 'ACTIVE' });
  });
});

describe('deleted: exits at once with CONTACT_DELETED', () => {
  it('DELETE of one contact and the bulk delete', async () => {
    const one = await waitingRun('delete-one@example.test');
    expect((await one.t.call('DELETE', `/v1/contactBooks/${one.t.bookId}/contacts/${one.contactId}`)).status).toBe(200);
    await expectExitedNow(one.t, one.j.id, 'CONTACT_DELETED');

    const bulk = await waitingRun('delete-bulk@example.test');
    const kept = await addContact(bulk.t, { email: 'kept@example.test' });
    expect((await bulk.t.call('POST', `/v1/journeys/${bulk.j.id}/enroll`, { contactId: kept })).status).toBe(201);
    const deleted = await bulk.t.call('DELETE', `/v1/contactBooks/${bulk.t.bookId}/contacts/bulk`, {
      contactIds: [bulk.contactId, 'ct_not_there'],
    });
    expect(deleted.body).toEqual({ success: true, count: 1 });
    const runs = (await bulk.t.call('GET', `/v1/journeys/${bulk.j.id}/runs`)).body.data as Json[];
    expect(Object.fromEntries(runs.map((r) => [r.contactId, [r.status, r.exitReason]]))).toEqual({
      [bulk.contactId]: ['EXITED', 'CONTACT_DELETED'],
      [kept]: ['ACTIVE', null],
    });
  });

  it('deleting the book of a PAUSED journey (an ACTIVE one refuses, 400) ends its runs', async () => {
    const { t, j } = await waitingRun('book@example.test');
    const refused = await t.call('DELETE', `/v1/contactBooks/${t.bookId}`);
    expect(refused.status).toBe(400);
    expect(await runNow(t, j.id)).toMatchObject({ status: 'ACTIVE' });
    expect((await t.call('POST', `/v1/journeys/${j.id}/status`, { status: 'PAUSED' })).status).toBe(200);
    expect((await t.call('DELETE', `/v1/contactBooks/${t.bookId}`)).status).toBe(200);
    await expectExitedNow(t, j.id, 'CONTACT_DELETED');
  });
});

describe('a send that failed after it was queued: SEND_FAILED before the next email', () => {
  it('a bounced first email ends the run at its next EMAIL step; a delivered one does not', async () => {
    const t = await journeyTeam(h);
    const bounced = await waitingRun('bounced@example.test', t);
    const delivered = await waitingRun('delivered@example.test', t);
    const emailOf = async (journeyId: string) => ((await runNow(t, journeyId)).history as Json[])[0]!.emailId as string;
    await h.t.deps.db
      .updateTable('emails')
      .set({ status: 'BOUNCED' })
      .where('id', '=', await emailOf(bounced.j.id))
      .execute();
    await h.t.deps.db
      .updateTable('emails')
      .set({ status: 'DELIVERED' })
      .where('id', '=', await emailOf(delivered.j.id))
      .execute();
    h.t.clock.advance(2 * HOUR);
    await runner.drain();

    const ended = await runNow(t, bounced.j.id);
    expect(ended).toMatchObject({ status: 'EXITED', exitReason: 'SEND_FAILED', currentStepIndex: 2 });
    expect((ended.history as Json[]).at(-1)!.note).toContain('bounced');
    expect((ended.history as Json[]).filter((e) => e.type === 'EMAIL')).toHaveLength(1);
    expect((await t.call('GET', `/v1/journeys/${bounced.j.id}`)).body.stats).toMatchObject({
      active: 0,
      exited: 1,
      sentByStep: { welcome: 1 },
    });
    expect(await runNow(t, delivered.j.id)).toMatchObject({ status: 'COMPLETED', exitReason: null });
  });
});

describe('an unexpected error: FAILED with PROCESSING_ERROR after every attempt', () => {
  // Last in this file: it moves the clock hours ahead, which makes the other tests' waits come due.
  it('retries with backoff, then fails the run and counts it', async () => {
    const { t, j, contactId } = await waitingRun('broken@example.test');
    // The stored steps damaged (as a corrupt row would be): the WAIT's seconds are no number, so the
    // turn cannot work out its next time and throws something that is not a refusal of the send.
    const broken = [{ id: 'pause', type: 'WAIT', seconds: 'soon' }];
    await h.t.deps.db
      .updateTable('journeys')
      .set({ steps: JSON.stringify(broken) })
      .where('id', '=', j.id)
      .execute();
    await h.t.deps.db
      .updateTable('journey_runs')
      .set({ current_step_index: 0 })
      .where('journey_id', '=', j.id)
      .execute();
    for (let attempt = 1; attempt <= 4; attempt++) {
      h.t.clock.advance(2 * HOUR); // past the run's time, then past each backoff (at most 30 minutes)
      await runner.drain();
      expect(await runNow(t, j.id), `after attempt ${attempt}`).toMatchObject({ status: 'ACTIVE' });
    }
    h.t.clock.advance(2 * HOUR);
    await runner.drain();
    const failed = await runNow(t, j.id);
    expect(failed).toMatchObject({ status: 'FAILED', exitReason: 'PROCESSING_ERROR', contactId });
    expect(failed.history.at(-1)).toMatchObject({ type: 'FAILED' });
    // Read from the table: the API's answer would carry the damaged steps, which its schema refuses.
    const stats = await h.t.deps.db
      .selectFrom('journey_stats')
      .select(['enrolled', 'active', 'exited', 'failed'])
      .where('journey_id', '=', j.id)
      .executeTakeFirstOrThrow();
    expect(stats).toEqual({ enrolled: 1, active: 0, exited: 0, failed: 1 });
  });
});
