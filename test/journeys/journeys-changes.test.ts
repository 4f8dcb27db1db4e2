// Journeys through HTTP against the real database: the create and change rules (steps, fields) and
// the status transitions, with what each status allows.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EmailHarness } from '../emails/support.ts';
import { makeJourney, startJourneySuite, steps, type Json, type JourneyTeam } from './support.ts';

let h: EmailHarness, team: JourneyTeam, other: JourneyTeam, close: () => Promise<void>;
beforeAll(async () => void ({ h, team, other, close } = await startJourneySuite()), 120_000);
afterAll(() => close());

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
