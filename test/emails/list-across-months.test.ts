// The email list across the monthly partitions of emails (0027_monthly_partitions.sql): sends a
// second apart that straddle midnight of a month boundary land in different partitions, and cursor
// paging still reads each once, newest first, as GET /v1/emails/{id} finds each.
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/platform/clock.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { adminRequest, bearer, createTeam } from '../support/factory.ts';

const MAIL_DOMAIN = 'mail.herald.test';
const SENDS = 5;

const yyyymm = (at: Date) => `${at.getUTCFullYear()}${String(at.getUTCMonth() + 1).padStart(2, '0')}`;
const monthStart = (offset: number, from = new Date()) =>
  new Date(Date.UTC(from.getUTCFullYear(), from.getUTCMonth() + offset, 1));

/**
 * The partition an email created at `at` belongs in: its month's, when one was made (0027 makes two
 * months ahead of the month it ran in; retention may make more), else the first partition for an
 * instant before next month, else the default one.
 */
async function expectedPartition(app: TestApp, at: Date): Promise<string> {
  const month = `emails_m${yyyymm(at)}`;
  const found = await sql<{ name: string | null }>`SELECT to_regclass(${month})::text AS name`.execute(app.deps.db);
  if (found.rows[0]!.name !== null) return month;
  return at < monthStart(1) ? `emails_before_${yyyymm(monthStart(1))}` : 'emails_later';
}

let t: TestApp | null = null;
let teamId: number | null = null;
afterEach(async () => {
  // Rows dated months ahead would sit in the shared database's default partition, where they stop
  // a later month's partition from being made (herald_month_partition answers false): remove them.
  if (t && teamId !== null) await sql`DELETE FROM emails WHERE team_id = ${teamId}`.execute(t.deps.db);
  await t?.close();
  [t, teamId] = [null, null];
});

async function sendAcross(start: Date): Promise<{ app: TestApp; key: string; sent: { id: string; at: Date }[] }> {
  const clock = new ManualClock(start);
  t = await createTestApp({ clock, config: { mailDomain: MAIL_DOMAIN } });
  const team = await createTeam(t.app, { plan: 'pro' });
  teamId = team.id;
  // Herald's own domain sends to the team's members with no DNS to set up.
  const members = (await adminRequest(t.app, 'GET', `/teams/${team.id}/members`)) as { id: number; email: string }[];
  const owner = members.find((m) => m.id === team.ownerId)!.email;
  const sent: { id: string; at: Date }[] = [];
  for (let i = 0; i < SENDS; i++) {
    const response = await t.app.inject({
      method: 'POST',
      url: `${t.deps.config.apiPrefix}/v1/emails`,
      headers: bearer(team.key),
      payload: { from: `hello@${MAIL_DOMAIN}`, to: owner, subject: `Email ${i}`, text: 'Hi' },
    });
    expect(response.statusCode, response.body).toBe(200);
    sent.push({ id: (response.json() as { emailId: string }).emailId, at: clock.now() });
    clock.advance(1000);
  }
  return { app: t, key: team.key, sent };
}

type Page = { data: { id: string; createdAt: string }[]; nextCursor?: string | null };

async function expectListedOnceNewestFirst(app: TestApp, key: string, sent: { id: string; at: Date }[]) {
  const base = `${app.deps.config.apiPrefix}/v1/emails`;
  const get = async (url: string) => {
    const response = await app.app.inject({ method: 'GET', url, headers: bearer(key) });
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as Page;
  };
  const listed: Page['data'] = [];
  let page = await get(`${base}?paging=cursor&limit=2`);
  for (let pages = 1; ; pages++) {
    expect(page.data.length).toBeLessThanOrEqual(2);
    listed.push(...page.data);
    if (!page.nextCursor) break;
    expect(pages, 'more pages than emails').toBeLessThan(SENDS + 1);
    page = await get(`${base}?paging=cursor&limit=2&cursor=${page.nextCursor}`);
  }
  expect(listed.map((e) => e.id)).toEqual(sent.map((s) => s.id).reverse());
  expect(listed.map((e) => e.createdAt)).toEqual(sent.map((s) => s.at.toISOString()).reverse());
  for (const { id } of sent) {
    const one = await app.app.inject({ method: 'GET', url: `${base}/${id}`, headers: bearer(key) });
    expect(one.statusCode, one.body).toBe(200);
    expect(one.json()).toMatchObject({ id });
  }
}

async function partitionsOf(app: TestApp, ids: string[]): Promise<Map<string, string>> {
  const rows = await sql<{ id: string; part: string }>`SELECT id, tableoid::regclass::text AS part FROM emails
    WHERE id = ANY(${ids})`.execute(app.deps.db);
  return new Map(rows.rows.map((r) => [r.id, r.part]));
}

describe('GET /v1/emails across monthly partitions', () => {
  it('pages every email once, newest first, across midnight of 2027-01-31 (a month the partitions may not cover)', async () => {
    const { app, key, sent } = await sendAcross(new Date('2027-01-31T23:59:58.000Z'));
    expect(sent.map((s) => s.at.toISOString().slice(0, 7))).toEqual([
      '2027-01',
      '2027-01',
      '2027-02',
      '2027-02',
      '2027-02',
    ]);
    await expectListedOnceNewestFirst(app, key, sent);
    const parts = await partitionsOf(
      app,
      sent.map((s) => s.id),
    );
    const expected = await Promise.all(sent.map((s) => expectedPartition(app, s.at)));
    expect(sent.map((s) => parts.get(s.id))).toEqual(expected);
    // Migrated from 2026-11 (when this was written) to 2027-01, January and February are apart;
    // from 2027-02 on, the first partition holds both.
    if (monthStart(0) < new Date('2027-02-01T00:00:00Z')) expect(new Set(parts.values()).size).toBe(2);
  });

  it('pages every email once, newest first, from the last second of next month into the month after', async () => {
    // Midnight between the two month partitions 0027 makes: both are crossed, whatever today is.
    const boundary = monthStart(2);
    const { app, key, sent } = await sendAcross(new Date(boundary.getTime() - 2000));
    await expectListedOnceNewestFirst(app, key, sent);
    const parts = await partitionsOf(
      app,
      sent.map((s) => s.id),
    );
    expect([...new Set(sent.map((s) => parts.get(s.id)))]).toEqual([
      `emails_m${yyyymm(monthStart(1))}`,
      `emails_m${yyyymm(boundary)}`,
    ]);
  });
});
