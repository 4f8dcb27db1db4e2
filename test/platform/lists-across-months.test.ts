// The partitioned lists other than emails across a month boundary (0027_monthly_partitions.sql): SMS,
// one-time codes (GET /v1/verify, a Herald extension), webhook calls and inbound messages, each made a
// second apart either side of midnight at the start of next month, so they sit in two partitions.
// Cursor paging reads each row once, newest first, and each still reads by its id.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/platform/clock.ts';
import { deleteSmsOfTeam } from '../../src/sms/index.ts';
import { startListener, sendRaw, plainMessage, uniqueLocal, MAIL_DOMAIN, type Listener } from '../inboxes/support.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { TestDnsServer } from '../support/dns-server.ts';
import { adminRequest, bearer, createSmsTeam, createTeam } from '../support/factory.ts';
import { sendTestSms } from '../support/sms-delivery.ts';

const ROWS = 5;

const yyyymm = (at: Date) => `${at.getUTCFullYear()}${String(at.getUTCMonth() + 1).padStart(2, '0')}`;
const boundary = new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth() + 1, 1));

/** One list: where it is, how its items name their id and time, and how to make one of its rows now. */
interface ListCase {
  name: string;
  path: string;
  table: 'sms_messages' | 'verifications' | 'webhook_calls' | 'inbox_messages';
  idField: 'id' | 'messageId';
  timeField: 'createdAt' | 'receivedAt';
  key: string;
  create: (i: number) => Promise<string>;
  made: { id: string; at: Date }[];
}

let t: TestApp;
let dns: TestDnsServer;
let listener: Listener;
const cases: ListCase[] = [];

const api = (path: string) => `${t.deps.config.apiPrefix}${path}`;

async function post(key: string, path: string, payload: object, status: number) {
  const response = await t.app.inject({ method: 'POST', url: api(path), headers: bearer(key), payload });
  expect(response.statusCode, response.body).toBe(status);
  return response.json();
}

async function get(key: string, path: string) {
  const response = await t.app.inject({ method: 'GET', url: api(path), headers: bearer(key) });
  expect(response.statusCode, `${path}: ${response.body}`).toBe(200);
  return response.json();
}

const smsTeams: number[] = [];
let hookOf: { key: string; id: string } | null = null;

beforeAll(async () => {
  const clock = new ManualClock(new Date(boundary.getTime() - 60_000));
  dns = await TestDnsServer.start();
  t = await createTestApp({
    clock,
    config: { mailDomain: MAIL_DOMAIN, dnsServers: [dns.address], webhookAllowCidrs: ['127.0.0.0/8'] },
  });
  listener = await startListener(t.deps);

  const smsTeam = await createSmsTeam(t.app);
  // A separate team for the codes: their own SMS would be listed in GET /v1/sms too.
  const codeTeam = await createSmsTeam(t.app);
  smsTeams.push(smsTeam.id, codeTeam.id);
  const hookTeam = await createTeam(t.app, { plan: 'pro' });
  const hostname = `${uniqueLocal('h')}.hooks.test`;
  dns.set(hostname, 'A', [{ type: 'A', address: '127.0.0.1' }]);
  const hook = await post(hookTeam.key, '/v1/webhooks', { url: `https://${hostname}/hook`, eventTypes: [] }, 201);
  hookOf = { key: hookTeam.key, id: hook.id };
  const inboxTeam = await createTeam(t.app);
  const address = `${uniqueLocal('months')}@${MAIL_DOMAIN}`;
  await adminRequest(t.app, 'POST', `/teams/${inboxTeam.id}/inboxes`, { name: 'Months', address });

  // Distinct numbers, so that no recipient velocity signal comes into it.
  const phone = (i: number) => `+1415555267${i}`;
  cases.push(
    {
      name: 'GET /v1/sms',
      path: '/v1/sms',
      table: 'sms_messages',
      idField: 'id',
      timeField: 'createdAt',
      key: smsTeam.key,
      create: async (i) => (await sendTestSms(t, smsTeam, phone(i))).id,
      made: [],
    },
    {
      name: 'GET /v1/verify',
      path: '/v1/verify',
      table: 'verifications',
      idField: 'id',
      timeField: 'createdAt',
      key: codeTeam.key,
      create: async (i) =>
        (await post(codeTeam.key, '/v1/verify/send', { to: phone(i), channel: 'sms', appName: 'Acme' }, 201)).id,
      made: [],
    },
    {
      name: 'GET /v1/webhooks/calls',
      path: '/v1/webhooks/calls',
      table: 'webhook_calls',
      idField: 'id',
      timeField: 'createdAt',
      key: hookTeam.key,
      create: async () => (await post(hookTeam.key, `/v1/webhooks/${hook.id}/test`, {}, 202)).callId,
      made: [],
    },
    {
      name: 'GET /v1/inbound/messages',
      path: '/v1/inbound/messages',
      table: 'inbox_messages',
      idField: 'messageId',
      timeField: 'receivedAt',
      key: inboxTeam.key,
      create: async (i) => {
        const answer = await sendRaw(
          listener.port,
          { from: 'alice@sender.test', to: address },
          plainMessage({ to: address, subject: `Message ${i}` }),
        );
        expect(answer.accepted).toEqual([address]);
        await listener.service.drained();
        const newest = await get(inboxTeam.key, '/v1/inbound/messages?limit=1');
        expect(newest.data[0]).toMatchObject({ subject: `Message ${i}` });
        return newest.data[0].messageId as string;
      },
      made: [],
    },
  );

  // Two seconds before midnight: two rows of each list this month, three next month.
  clock.set(new Date(boundary.getTime() - 2000));
  for (let i = 0; i < ROWS; i++) {
    for (const c of cases) c.made.push({ id: await c.create(i), at: clock.now() });
    clock.advance(1000);
  }
}, 180_000);

afterAll(async () => {
  // Queued SMS and pending calls dated next month would reach another file's fakes in this worker's
  // database once its clock passed them.
  if (t) {
    for (const team of smsTeams) await deleteSmsOfTeam(t.deps.db, team);
    if (hookOf)
      await t.app.inject({ method: 'DELETE', url: api(`/v1/webhooks/${hookOf.id}`), headers: bearer(hookOf.key) });
  }
  await listener?.service.stop();
  await t?.close();
  await dns?.close();
});

/** Every item of the list, following nextCursor from the first page, `limit` at a time. */
async function pageThrough(c: ListCase, limit: number): Promise<Record<string, string>[]> {
  const listed: Record<string, string>[] = [];
  let page = await get(c.key, `${c.path}?limit=${limit}`);
  for (let pages = 1; ; pages++) {
    expect(page.data.length).toBeLessThanOrEqual(limit);
    listed.push(...page.data);
    if (!page.nextCursor) break;
    expect(pages, 'more pages than rows').toBeLessThan(ROWS + 1);
    page = await get(c.key, `${c.path}?limit=${limit}&cursor=${encodeURIComponent(page.nextCursor)}`);
  }
  return listed;
}

describe('cursor paging across the monthly partitions', () => {
  const names = ['GET /v1/sms', 'GET /v1/verify', 'GET /v1/webhooks/calls', 'GET /v1/inbound/messages'];

  it.each(names)('%s: the rows straddle midnight and sit in two partitions', async (name) => {
    const c = cases.find((x) => x.name === name)!;
    expect(c.made.map((m) => m.at.getTime() - boundary.getTime())).toEqual([-2000, -1000, 0, 1000, 2000]);
    const rows = await sql<{ id: string; part: string }>`SELECT id, tableoid::regclass::text AS part
      FROM ${sql.table(c.table)} WHERE id = ANY(${c.made.map((m) => m.id)})`.execute(t.deps.db);
    const parts = new Map(rows.rows.map((r) => [r.id, r.part]));
    const [before, after] = [c.made.slice(0, 2), c.made.slice(2)].map((ms) => new Set(ms.map((m) => parts.get(m.id))));
    // 0027 made next month's partition; this month's rows are in the first one (or this month's).
    expect([...after!]).toEqual([`${c.table}_m${yyyymm(boundary)}`]);
    expect(before!.size).toBe(1);
    expect(before!.has(`${c.table}_m${yyyymm(boundary)}`)).toBe(false);
    expect([...before!][0]).toMatch(new RegExp(`^${c.table}_`));
  });

  for (const limit of [1, 2]) {
    it.each(names)(`%s: limit ${limit} lists every row once, newest first`, async (name) => {
      const c = cases.find((x) => x.name === name)!;
      const listed = await pageThrough(c, limit);
      expect(listed.map((item) => item[c.idField])).toEqual(c.made.map((m) => m.id).reverse());
      expect(listed.map((item) => item[c.timeField])).toEqual(c.made.map((m) => m.at.toISOString()).reverse());
    });
  }

  it.each(names)('%s: each row reads by its id', async (name) => {
    const c = cases.find((x) => x.name === name)!;
    for (const { id, at } of c.made) {
      const one = await get(c.key, `${c.path}/${id}`);
      expect(one).toMatchObject({ [c.idField]: id, [c.timeField]: at.toISOString() });
    }
  });
});
