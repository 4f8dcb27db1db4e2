// Opaque cursors and the shared paging parameters, through a probe list route over real rows.
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { principalOf } from '../../src/platform/auth/plugin.ts';
import { cursorPage, cursorParam, decodeCursor, encodeCursor, limitParam } from '../../src/platform/pagination.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { bearer, createTeam, type TestTeam } from '../support/factory.ts';

let t: TestApp;
let team: TestTeam;

// A list over the team's members, newest id first, as area lists will do over their own tables.
const probes: FastifyPluginAsync = async (plain) => {
  const api = plain.withTypeProvider<ZodTypeProvider>();
  api.get(
    '/v1/_probe/members',
    {
      config: { access: 'full' },
      schema: { querystring: z.object({ cursor: cursorParam, limit: limitParam(50, 20) }) },
    },
    async (request) => {
      const { teamId } = principalOf(request);
      const { secrets, db } = t.deps;
      const after = request.query.cursor
        ? Number(decodeCursor(secrets, request.query.cursor, 'members', teamId)[0])
        : null;
      const rows = await db
        .selectFrom('members')
        .select('id')
        .where('team_id', '=', teamId)
        .$if(after !== null, (q) => q.where('id', '<', after!))
        .orderBy('id', 'desc')
        .limit(request.query.limit + 1)
        .execute();
      return cursorPage(rows, request.query.limit, (last) => encodeCursor(secrets, 'members', teamId, [last.id]));
    },
  );
};

beforeAll(async () => {
  t = await createTestApp({ extraRoutes: probes });
  team = await createTeam(t.app);
  for (let i = 0; i < 6; i++) await team.addMember('MEMBER');
});
afterAll(() => t.close());

const list = (query: string, key = team.key) =>
  t.app.inject({ method: 'GET', url: `/api/v1/_probe/members?${query}`, headers: bearer(key) });

describe('cursor pagination', () => {
  it('walks every row once, then nextCursor is null', async () => {
    const seen: number[] = [];
    let cursor: string | null = null;
    do {
      const response = await list(`limit=3${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      expect(response.statusCode).toBe(200);
      const page = response.json() as { data: { id: number }[]; nextCursor: string | null };
      seen.push(...page.data.map((r) => r.id));
      cursor = page.nextCursor;
    } while (cursor);
    const total = await sql<{ n: bigint }>`SELECT count(*) AS n FROM members WHERE team_id = ${team.id}`.execute(
      t.deps.db,
    );
    expect(seen.length).toBe(Number(total.rows[0]!.n));
    expect(new Set(seen).size).toBe(seen.length);
    expect([...seen].sort((a, b) => b - a)).toEqual(seen);
  });

  it('refuses a cursor from another team, another list, or edited, with 400', async () => {
    const page = (await list('limit=2')).json() as { nextCursor: string };
    const other = await createTeam(t.app);
    const fromOtherTeam = await list(`cursor=${encodeURIComponent(page.nextCursor)}`, other.key);
    expect(fromOtherTeam.statusCode).toBe(400);
    expect(fromOtherTeam.json().error.message).toContain('cursor');
    const otherList = encodeCursor(t.deps.secrets, 'emails', team.id, [999]);
    expect((await list(`cursor=${encodeURIComponent(otherList)}`)).statusCode).toBe(400);
    const [body, signature] = page.nextCursor.split('.');
    const forged = Buffer.from(JSON.stringify({ l: 'members', t: team.id, p: [1] })).toString('base64url');
    expect((await list(`cursor=${forged}.${signature}`)).statusCode).toBe(400);
    expect((await list(`cursor=${body}`)).statusCode).toBe(400);
    expect((await list('cursor=%%%')).statusCode).toBe(400);
  });

  it('limit edges: 1 and the maximum accepted; 0, max + 1 and non-numbers refused naming the field', async () => {
    expect((await list('limit=1')).statusCode).toBe(200);
    expect((await list('limit=50')).statusCode).toBe(200);
    for (const bad of ['0', '51', 'ten', '2.5']) {
      const response = await list(`limit=${bad}`);
      expect(response.statusCode).toBe(400);
      expect(response.json().error.message).toContain('limit');
    }
  });

  it('cursor round-trips its position', () => {
    const cursor = encodeCursor(t.deps.secrets, 'calls', 7, ['2026-01-01T00:00:00.000Z', 'call_1']);
    expect(decodeCursor(t.deps.secrets, cursor, 'calls', 7)).toEqual(['2026-01-01T00:00:00.000Z', 'call_1']);
  });
});
