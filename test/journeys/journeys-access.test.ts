// The book and segment protections while a journey is ACTIVE, the segment conditions that read runs,
// cross-team 404, the access of each endpoint and the runs' pages.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EmailHarness } from '../emails/support.ts';
import { definition } from '../segments/helpers.ts';
import {
  addContact,
  client,
  enrol,
  journeyTeam,
  makeJourney,
  readRuns,
  startJourneySuite,
  type Json,
  type JourneyRunner,
  type JourneyTeam,
} from './support.ts';

let h: EmailHarness, team: JourneyTeam, other: JourneyTeam, runner: JourneyRunner, close: () => Promise<void>;
beforeAll(async () => void ({ h, team, other, runner, close } = await startJourneySuite()), 120_000);
afterAll(() => close());

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
    await enrol(t, j.id, { contactId: inIt });
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
    expect((await enrol(team, j.id, { contactId })).status).toBe(400);
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
      await enrol(team, j.id, { contactId });
      h.t.clock.advance(1);
    }
    const first = await readRuns(team, j.id, '?limit=2');
    expect(first.data).toHaveLength(2);
    const second = await readRuns(team, j.id, `?limit=2&cursor=${first.nextCursor}`);
    expect(second.data).toHaveLength(1);
    expect(second.nextCursor).toBeNull();
    expect((await team.call('GET', `/v1/journeys/${j.id}/runs?limit=101`)).status).toBe(400);
    expect((await team.call('GET', `/v1/journeys/${j.id}/runs?limit=0`)).status).toBe(400);
  });
});
