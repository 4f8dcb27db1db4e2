// Cursor paging of a segment's contacts while contacts are added (and one deleted): no duplicates, no gaps.
// Ids are time-ordered and the cursor is the last id seen, so a contact added meanwhile comes after
// every contact that existed, and each existing contact is seen exactly once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/platform/clock.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { bearer, createTeam, type TestTeam } from '../support/factory.ts';
import { definition, segmentsClient, type SegmentContact } from './helpers.ts';

let t: TestApp;
let team: TestTeam;
let api: ReturnType<typeof segmentsClient>;
let book: string;

beforeAll(async () => {
  t = await createTestApp({ clock: new ManualClock('2026-05-01T00:00:00.000Z') });
  team = await createTeam(t.app);
  api = segmentsClient(t.app, team.key);
  book = await api.makeBook([]);
});
afterAll(() => t.close());

describe('paging while contacts are added', () => {
  it('sees every contact that existed exactly once, and the ones added later after them', async () => {
    const before: string[] = [];
    for (let n = 0; n < 10; n++) {
      t.clock.advance(1000);
      before.push(await api.addContact(book, { email: `p${n}@page.test` }));
    }
    const segment = await api.make(book, definition([{ type: 'email', op: 'ends_with', value: '@page.test' }]));
    const seen: string[] = [];
    const added: string[] = [];
    let cursor: string | null = null;
    let page = 0;
    do {
      const query: string = cursor === null ? '?limit=3' : `?limit=3&cursor=${encodeURIComponent(cursor)}`;
      const response = await api.contacts(book, segment.id, query);
      expect(response.statusCode).toBe(200);
      const body = response.json() as { data: SegmentContact[]; nextCursor: string | null };
      seen.push(...body.data.map((c) => c.id));
      cursor = body.nextCursor;
      // After the first page, a contact already seen is deleted: an offset-based page would now skip one.
      if (page === 0) {
        const deleted = await t.app.inject({
          method: 'DELETE',
          url: `/api/v1/contactBooks/${book}/contacts/${seen[0]}`,
          headers: bearer(team.key),
        });
        expect(deleted.statusCode).toBe(200);
      }
      // Between pages, two more matching contacts arrive (and one that does not match).
      if (page < 3) {
        for (const tag of ['a', 'b']) {
          t.clock.advance(1000);
          added.push(await api.addContact(book, { email: `new-${page}-${tag}@page.test` }));
        }
        await api.addContact(book, { email: `other-${page}@elsewhere.test` });
      }
      page++;
    } while (cursor !== null);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen.slice(0, before.length)).toEqual([...before].sort());
    expect(seen.slice(before.length)).toEqual([...added].sort());
  });
});
