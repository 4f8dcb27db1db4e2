// GET …/segments/{id}/contacts: cursor-paged by id with total, the contract's contact shape, signed
// cursors; and the compiled definition is one SQL statement.
import type { KyselyPlugin } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countMatching, matchingContacts } from '../../src/segments/compile.ts';
import { Definition } from '../../src/segments/definition.ts';
import { contactInSegment, countSegmentContacts, segmentContactsQuery } from '../../src/segments/index.ts';
import { ManualClock } from '../../src/platform/clock.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { createTeam, type TestTeam } from '../support/factory.ts';
import { definition, errorOf, insertEmail, segmentsClient, type SegmentContact } from './helpers.ts';

let t: TestApp;
let team: TestTeam;
let api: ReturnType<typeof segmentsClient>;
let book: string;
const ids: string[] = [];

const matchesNine = definition([{ type: 'email', op: 'ends_with', value: '@in.test' }]);

beforeAll(async () => {
  t = await createTestApp({ clock: new ManualClock('2026-04-01T00:00:00.000Z') });
  team = await createTeam(t.app);
  api = segmentsClient(t.app, team.key);
  book = await api.makeBook(['plan']);
  for (let n = 0; n < 9; n++) {
    t.clock.set(`2026-03-0${n + 1}T00:00:00.000Z`);
    ids.push(
      await api.addContact(book, {
        email: `c${n}@in.test`,
        firstName: `C${n}`,
        properties: { plan: n % 2 ? 'pro' : 'free' },
      }),
    );
  }
  await api.addContact(book, { email: 'out@out.test' });
  t.clock.set('2026-04-01T00:00:00.000Z');
  ids.sort();
});
afterAll(() => t.close());

describe('contacts of a segment', () => {
  it('pages by id with nextCursor and total, in the contract shape', async () => {
    const segment = await api.make(book, matchesNine);
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const query: string = cursor === null ? '?limit=4' : `?limit=4&cursor=${encodeURIComponent(cursor)}`;
      const response = await api.contacts(book, segment.id, query);
      expect(response.statusCode).toBe(200);
      const body = response.json() as { data: SegmentContact[]; nextCursor: string | null; total: number };
      expect(body.total).toBe(9);
      seen.push(...body.data.map((contact) => contact.id));
      cursor = body.nextCursor;
      pages++;
    } while (cursor !== null);
    expect(pages).toBe(3);
    expect(seen).toEqual(ids);

    const first = ((await api.contacts(book, segment.id, '?limit=1')).json() as { data: SegmentContact[] }).data[0];
    expect(first).toEqual({
      id: ids[0],
      email: 'c0@in.test',
      firstName: 'C0',
      lastName: null,
      subscribed: true,
      properties: { plan: 'free' },
      createdAt: '2026-03-01T00:00:00.000Z',
      updatedAt: '2026-03-01T00:00:00.000Z',
    });
  });

  it('limit defaults to 50 and must be 1 to 100', async () => {
    const segment = await api.make(book, matchesNine);
    const all = (await api.contacts(book, segment.id)).json() as { data: unknown[]; nextCursor: string | null };
    expect(all.data).toHaveLength(9);
    expect(all.nextCursor).toBeNull();
    expect((await api.contacts(book, segment.id, '?limit=100')).statusCode).toBe(200);
    for (const bad of ['0', '101', 'x']) {
      const response = await api.contacts(book, segment.id, `?limit=${bad}`);
      expect(response.statusCode).toBe(400);
      expect(errorOf(response).message).toContain('limit');
    }
  });

  it("refuses an edited cursor and another segment's cursor", async () => {
    const a = await api.make(book, matchesNine);
    const b = await api.make(book, matchesNine);
    const cursor = ((await api.contacts(book, a.id, '?limit=2')).json() as { nextCursor: string }).nextCursor;
    expect((await api.contacts(book, b.id, `?cursor=${encodeURIComponent(cursor)}`)).statusCode).toBe(400);
    expect((await api.contacts(book, a.id, `?cursor=${encodeURIComponent(`x${cursor}`)}`)).statusCode).toBe(400);
    expect((await api.contacts(book, a.id, `?cursor=${encodeURIComponent(cursor)}`)).statusCode).toBe(200);
  });

  it('404 for a segment that does not exist', async () => {
    expect((await api.contacts(book, 'sg_missing')).statusCode).toBe(404);
  });
});

describe('compilation', () => {
  /** Counts the statements Kysely executes through it (transformQuery runs once per executed query). */
  const countingPlugin = () => {
    const statements: string[] = [];
    const plugin: KyselyPlugin = {
      transformQuery: (args) => {
        statements.push(args.node.kind);
        return args.node;
      },
      transformResult: async (args) => args.result,
    };
    return { plugin, statements };
  };

  it('a count of a definition with every kind of condition is exactly one SQL statement', async () => {
    await insertEmail(t.deps.db, team.id, 'c1@in.test', [
      ['DELIVERED', '2026-03-30T00:00:00.000Z'],
      ['OPENED', '2026-03-30T01:00:00.000Z'],
    ]);
    const def = Definition.parse(
      definition([
        { type: 'email', op: 'ends_with', value: 'in.test' },
        { type: 'first_name', op: 'is_set' },
        { type: 'last_name', op: 'is_empty' },
        { type: 'subscribed', op: 'is', value: true },
        { type: 'added', op: 'after', value: '2026-01-01' },
        { type: 'property', key: 'plan', op: 'equals', value: 'PRO' },
        {
          type: 'group',
          match: 'any',
          conditions: [
            { type: 'email_activity', event: 'opened', op: 'in_last_days', days: 7 },
            { type: 'email_problem', event: 'bounced', op: 'ever' },
            { type: 'journey', op: 'is_in', journeyId: 'jr_1' },
          ],
        },
        { type: 'journey', op: 'not_in', journeyId: 'jr_1' },
      ]),
    );
    const { plugin, statements } = countingPlugin();
    const counted = t.deps.db.withPlugin(plugin);
    expect(await countMatching(counted, team.id, book, def, t.clock.now())).toBe(1);
    expect(statements).toEqual(['SelectQueryNode']);

    // The compiled query is one statement with every value bound as a parameter, runnable on its own.
    const compiled = matchingContacts(t.deps.db, team.id, book, def, t.clock.now()).select('c.email').compile();
    expect(compiled.sql).not.toContain(';');
    expect(compiled.sql).not.toContain('PRO');
    expect(compiled.parameters).toContain('PRO');
    expect((await t.deps.db.executeQuery(compiled)).rows).toEqual([{ email: 'c1@in.test' }]);
  });

  it('journey not_in matches everyone when compiled (a journey without runs)', async () => {
    const def = Definition.parse(definition([{ type: 'journey', op: 'not_in', journeyId: 'jr_1' }]));
    expect(await countMatching(t.deps.db, team.id, book, def, t.clock.now())).toBe(10);
    const isIn = Definition.parse(definition([{ type: 'journey', op: 'is_in', journeyId: 'jr_1' }]));
    expect(await countMatching(t.deps.db, team.id, book, isIn, t.clock.now())).toBe(0);
  });

  it('other areas get a segment as one live query', async () => {
    const segment = await api.make(book, definition([{ type: 'property', key: 'plan', op: 'equals', value: 'pro' }]));
    const query = await segmentContactsQuery(t.deps.db, team.id, segment.id, t.clock.now());
    expect(query).toBeDefined();
    const emails = (await query!.select('c.email').orderBy('c.email').execute()).map((row) => row.email);
    expect(emails).toEqual(['c1@in.test', 'c3@in.test', 'c5@in.test', 'c7@in.test']);
    expect(await countSegmentContacts(t.deps.db, team.id, segment.id, t.clock.now())).toBe(4);
    expect(await contactInSegment(t.deps.db, team.id, segment.id, ids[1]!, t.clock.now())).toBe(true);
    expect(await contactInSegment(t.deps.db, team.id, segment.id, ids[0]!, t.clock.now())).toBe(false);
    // Another team cannot reach it.
    const stranger = await createTeam(t.app);
    expect(await segmentContactsQuery(t.deps.db, stranger.id, segment.id, t.clock.now())).toBeUndefined();
  });
});
