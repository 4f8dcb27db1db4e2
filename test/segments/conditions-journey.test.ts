// The journey condition against the shared book (conditions-book.ts): a journey without runs, or
// deleted since, is no problem; a journey the team does not have is refused at create and update.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/app.ts';
import type { TestTeam } from '../support/factory.ts';
import { createTeam } from '../support/factory.ts';
import { definition, segmentsClient } from './helpers.ts';
import { startConditionsBook, type SegmentsClient } from './conditions-book.ts';

let t: TestApp;
let team: TestTeam;
let api: SegmentsClient;
let book: string;

beforeAll(async () => {
  ({ t, team, api, book } = await startConditionsBook());
});
afterAll(() => t.close());

describe('journey', () => {
  /** A journey of the team behind `key`, made through the journeys API. */
  async function makeJourney(key: string, bookId: string): Promise<string> {
    const response = await segmentsClient(t.app, key).call('POST', '/v1/journeys', {
      name: 'Onboarding',
      triggerType: 'API',
      contactBookId: bookId,
      steps: [{ id: 'w', type: 'WAIT', seconds: 60 }],
    });
    expect(response.statusCode, response.body).toBe(201);
    return (response.json() as { id: string }).id;
  }

  it('names a journey without runs (or deleted since): nobody is in it, has completed or exited it; no problem', async () => {
    const journeyId = await makeJourney(team.key, book);
    const segments = [];
    for (const op of ['is_in', 'completed', 'exited']) {
      const segment = await api.make(book, definition([{ type: 'journey', op, journeyId }]));
      expect(segment.count).toBe(0);
      expect(segment.problems).toEqual([]);
      segments.push(segment);
    }
    const notIn = await api.make(book, definition([{ type: 'journey', op: 'not_in', journeyId }]));
    expect(notIn.count).toBeGreaterThan(0);
    expect(notIn.problems).toEqual([]);

    expect((await api.call('DELETE', `/v1/journeys/${journeyId}`)).statusCode).toBe(200);
    const after = (await api.get(book, notIn.id)).json();
    expect(after.count).toBe(notIn.count);
    expect(after.problems).toEqual([]);
    // Sending the stored definition back (a rename) is not refused for the journey deleted since.
    const renamed = await api.patch(book, notIn.id, {
      name: `renamed ${notIn.id}`,
      definition: definition([{ type: 'journey', op: 'not_in', journeyId }]),
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
  });

  it("refuses (400) a journey the team does not have: made up, or another team's; at create and update", async () => {
    const other = await createTeam(t.app);
    const othersJourney = await makeJourney(other.key, await segmentsClient(t.app, other.key).makeBook());
    const ours = await api.make(book, definition([{ type: 'subscribed', op: 'is', value: true }]));
    for (const journeyId of ['jr_made_up', othersJourney]) {
      const grouped = definition([
        { type: 'subscribed', op: 'is', value: true },
        { type: 'group', match: 'any', conditions: [{ type: 'journey', op: 'is_in', journeyId }] },
      ]);
      for (const response of [
        await api.create(book, { name: `x ${journeyId}`, definition: grouped }),
        await api.patch(book, ours.id, { definition: grouped }),
      ]) {
        expect(response.statusCode, response.body).toBe(400);
        expect(response.json().error).toEqual({
          code: 'BAD_REQUEST',
          message: `definition: journey "${journeyId}" is not a journey of the team`,
        });
      }
    }
    expect((await api.get(book, ours.id)).json().definition.conditions).toHaveLength(1);
  });
});
