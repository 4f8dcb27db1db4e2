// Listing templates through HTTP: most recently changed first, paging and its limits, and only the
// team's own.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/app.ts';
import { createTeam } from '../support/factory.ts';
import { errorOf, startTemplatesApp, templatesClient, type Template, type TemplatesClient } from './helpers.ts';

let t: TestApp;
let api: TemplatesClient;

beforeAll(async () => {
  ({ t, api } = await startTemplatesApp());
});
afterAll(() => t.close());

describe('list', () => {
  it('is most recently changed first, and pages', async () => {
    const own = await createTeam(t.app);
    const client = templatesClient(t.app, own.key);
    t.clock.set('2026-03-01T10:00:00.000Z');
    const a = await client.make({ name: 'A' });
    t.clock.advance(1000);
    const b = await client.make({ name: 'B' });
    t.clock.advance(1000);
    const c = await client.make({ name: 'C' });
    t.clock.advance(1000);
    // Changing A makes it the most recent.
    expect((await client.patch(a.id, { subject: 'Changed' })).statusCode).toBe(200);

    const names = async (query: string) => ((await client.list(query)).json() as Template[]).map((x) => x.name);
    expect(await names('')).toEqual(['A', 'C', 'B']);
    expect(await names('?page=1&limit=2')).toEqual(['A', 'C']);
    expect(await names('?page=2&limit=2')).toEqual(['B']);
    expect(await names('?page=3&limit=2')).toEqual([]);
    expect(await names('?limit=100')).toEqual(['A', 'C', 'B']);

    const listed = (await client.list()).json() as Template[];
    expect(listed[0]).toEqual((await client.get(a.id)).json());
    expect(listed.map((x) => x.id)).not.toContain(undefined);
    expect([b.id, c.id]).toEqual([listed[2]!.id, listed[1]!.id]);
  });

  it('defaults to 50 per page', async () => {
    const own = await createTeam(t.app);
    const client = templatesClient(t.app, own.key);
    for (let i = 0; i < 51; i++) await client.make({ name: `T${i}` });
    expect(((await client.list()).json() as Template[]).length).toBe(50);
    expect(((await client.list('?page=2')).json() as Template[]).length).toBe(1);
  });

  it('refuses a limit past 100, a limit or page under 1, and a page past 10000', async () => {
    for (const [query, field] of [
      ['?limit=101', 'limit'],
      ['?limit=0', 'limit'],
      ['?page=0', 'page'],
      ['?page=10001', 'page'],
      ['?limit=abc', 'limit'],
    ]) {
      const response = await api.list(query);
      expect(response.statusCode, query).toBe(400);
      expect(errorOf(response).message).toContain(field);
    }
    expect((await api.list('?page=10000&limit=100')).statusCode).toBe(200);
  });

  it("never shows another team's templates", async () => {
    const other = await createTeam(t.app);
    const mine = await api.make({ name: 'Mine only' });
    const theirs = (await templatesClient(t.app, other.key).list()).json() as Template[];
    expect(theirs.map((x) => x.id)).not.toContain(mine.id);
  });
});
