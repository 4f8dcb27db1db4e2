// Retention across month boundaries on a database of its own (runs drop partitions): bodies of final
// emails emptied after HERALD_RETENTION_BODIES_DAYS (bodyRetained false, a queued email keeps its
// body), an email past HERALD_RETENTION_EVENTS_DAYS answering 404 and leaving the list, an expired
// month held while one email is not final and dropped whole once it is, partitions made ahead (and
// left for the next run while a long read holds their table), and `herald admin retention`'s plan of
// each state.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectDatabase, type DbHandle } from '../../src/db/connect.ts';
import { migrate } from '../../src/db/migrate.ts';
import { printRetention } from '../../src/admin/retention-print.ts';
import { ManualClock } from '../../src/platform/clock.ts';
import { runRetention, type RetentionPlan } from '../../src/retention/index.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { adminRequest, bearer, createTeam, type TestTeam } from '../support/factory.ts';
import { freshPostgresDatabase } from '../support/fresh-database.ts';

const MAIL_DOMAIN = 'mail.herald.test';
const DAY = 24 * 60 * 60 * 1000;
const yyyymm = (at: Date) => `${at.getUTCFullYear()}${String(at.getUTCMonth() + 1).padStart(2, '0')}`;
const monthStart = (offset: number, from: Date) =>
  new Date(Date.UTC(from.getUTCFullYear(), from.getUTCMonth() + offset, 1));

const start = new Date();
// The partition 0027 made of every id before next month (this test's database migrates now).
const FIRST = `emails_before_${yyyymm(monthStart(1, start))}`;

let handle: DbHandle;
let drop: (() => Promise<void>) | null = null;
let t: TestApp;
let team: TestTeam;
let owner: string;
const clock = new ManualClock(start);
const days = { bodiesDays: 30, eventsDays: 90 };

beforeAll(async () => {
  const base = process.env.DATABASE_URL;
  const fresh = base ? await freshPostgresDatabase(base, 'retention') : null;
  drop = fresh?.drop ?? null;
  handle = await connectDatabase({ databaseUrl: fresh?.url ?? null, dataDir: null, poolSize: 4 });
  await migrate(handle);
  t = await createTestApp({ clock, database: handle, config: { mailDomain: MAIL_DOMAIN } });
  team = await createTeam(t.app, { plan: 'pro' });
  const members = (await adminRequest(t.app, 'GET', `/teams/${team.id}/members`)) as { id: number; email: string }[];
  owner = members.find((m) => m.id === team.ownerId)!.email;
}, 60_000);

afterAll(async () => {
  await t?.close();
  await handle?.close();
  await drop?.();
});

async function send(subject: string): Promise<string> {
  const response = await t.app.inject({
    method: 'POST',
    url: `${t.deps.config.apiPrefix}/v1/emails`,
    headers: bearer(team.key),
    payload: { from: `hello@${MAIL_DOMAIN}`, to: owner, subject, html: `<p>${subject}</p>`, text: subject },
  });
  expect(response.statusCode, response.body).toBe(200);
  return (response.json() as { emailId: string }).emailId;
}

const read = (id: string) =>
  t.app.inject({ method: 'GET', url: `${t.deps.config.apiPrefix}/v1/emails/${id}`, headers: bearer(team.key) });
const listed = async () =>
  (
    (
      await t.app.inject({ method: 'GET', url: `${t.deps.config.apiPrefix}/v1/emails`, headers: bearer(team.key) })
    ).json() as { data: { id: string }[] }
  ).data.map((e) => e.id);
const plan = async () => (await adminRequest(t.app, 'GET', '/retention')) as RetentionPlan;
const setStatus = (id: string, status: string) =>
  sql`UPDATE emails SET status = ${status} WHERE id = ${id}`.execute(handle.db);

describe('retention', () => {
  let delivered = '';
  let queued = '';

  it('keeps everything young, and shows each partition with what the next run does', async () => {
    delivered = await send('Delivered long ago');
    queued = await send('Still queued');
    await setStatus(delivered, 'DELIVERED');
    const report = await runRetention(handle.db, clock.now(), days);
    expect(report).toMatchObject({ dropped: [], busy: [], held: [], bodiesRemoved: 0, notMade: [], waited: [] });
    const body = await plan();
    expect(body.partitions.find((p) => p.partition === FIRST)).toMatchObject({
      table: 'emails',
      action: 'keep',
      rows: 2,
    });
    // `herald admin retention`: a table on a terminal, the same JSON when piped.
    const table = printRetention(body, false).split('\n');
    expect(table[0]).toBe(
      "Bodies kept 30 days; emails' metadata and events, SMS and codes 90 days; webhook calls 30 days.",
    );
    expect(table[1]).toMatch(/^TABLE +MONTH +ROWS +SIZE +NEXT RUN$/);
    expect(table.find((line) => line.startsWith('emails ') && line.includes('before '))).toMatch(/ 2 +\d+ KB +keep$/);
    expect(JSON.parse(printRetention(body, true))).toEqual(body);
    expect((await read(delivered)).json()).toMatchObject({ bodyRetained: true, text: 'Delivered long ago' });
  });

  it('empties the bodies of final emails past the bodies retention, a queued one keeping its own', async () => {
    clock.advance(31 * DAY);
    const report = await runRetention(handle.db, clock.now(), days);
    expect(report.bodiesRemoved).toBe(1);
    expect((await read(delivered)).json()).toMatchObject({ bodyRetained: false, html: null, text: null });
    expect((await read(queued)).json()).toMatchObject({ bodyRetained: true, text: 'Still queued' });
    // The next run starts after the mark: nothing left to do, and the months ahead of the clock exist.
    expect(await runRetention(handle.db, clock.now(), days)).toMatchObject({ bodiesRemoved: 0, notMade: [] });
    const months = (await plan()).partitions.filter((p) => p.table === 'emails').map((p) => p.month);
    expect(months).toContain(yyyymm(monthStart(2, clock.now())).replace(/(\d{4})(\d{2})/, '$1-$2'));
    // Made by the run, first analysed after 1,000 changes (src/db/statistics.ts), opens with HOT room.
    const made = yyyymm(monthStart(2, clock.now()));
    const options = await sql<{ name: string; options: string[] }>`SELECT relname AS name, reloptions AS options
      FROM pg_class WHERE relname IN (${`emails_m${made}`}, ${`email_opens_m${made}`}) ORDER BY relname`.execute(
      handle.db,
    );
    expect(options.rows).toEqual([
      { name: `email_opens_m${made}`, options: ['autovacuum_analyze_threshold=1000', 'fillfactor=50'] },
      { name: `emails_m${made}`, options: ['autovacuum_analyze_threshold=1000'] },
    ]);
  });

  it('answers 404 past the events retention, and holds the expired month while an email is not final', async () => {
    // Past the end of the first partition's last month by more than the events retention.
    clock.set(new Date(monthStart(1, start).getTime() + 91 * DAY));
    expect((await read(delivered)).statusCode).toBe(404);
    expect(await listed()).toEqual([]);
    const report = await runRetention(handle.db, clock.now(), days);
    // Webhook calls are kept 30 days (the contract): their old months go; no email's does.
    expect(report.dropped.filter((p) => p.startsWith('email'))).toEqual([]);
    expect(report.dropped).toContain(`webhook_calls_m${yyyymm(monthStart(1, start))}`);
    expect(report.held).toEqual([{ partition: FIRST, notFinal: 1 }]);
    expect((await plan()).partitions.find((p) => p.partition === FIRST)).toMatchObject({ action: 'held', held: 1 });
    expect(await sql`SELECT id FROM emails WHERE id = ${queued}`.execute(handle.db)).toMatchObject({
      rows: [{ id: queued }],
    });
  });

  it('drops the month whole, with its events, recipients, attachments and opens, once every email is final', async () => {
    await setStatus(queued, 'DELIVERED');
    expect((await plan()).partitions.find((p) => p.partition === FIRST)).toMatchObject({ action: 'drop' });
    // Sends go on meanwhile: the drop takes the family's tables in the order sends do and no other
    // table (0028), so neither side deadlocks (each send answers 200, nothing is busy) and the drop
    // waits for the sends in flight.
    const [report] = await Promise.all([
      runRetention(handle.db, clock.now(), days),
      ...Array.from({ length: 10 }, (_, i) => send(`During the drop ${i}`)),
    ]);
    expect(report.busy).toEqual([]);
    const suffix = FIRST.slice('emails'.length);
    expect(report.dropped).toEqual(
      expect.arrayContaining([FIRST, `email_events${suffix}`, `email_recipients${suffix}`, `email_opens${suffix}`]),
    );
    const left = await sql<{ n: string }>`SELECT count(*)::text AS n FROM emails WHERE id <= ${queued}`.execute(
      handle.db,
    );
    expect(left.rows[0]!.n).toBe('0');
    expect((await plan()).partitions.map((p) => p.partition)).not.toContain(FIRST);
    // Sending goes on into the clock's month.
    const later = await send('After the drop');
    expect((await read(later)).json()).toMatchObject({ bodyRetained: true, text: 'After the drop' });
  });

  it('drops the tables of a month a stopped run had detached but not dropped', async () => {
    // As a run leaves them when it stops between its detach and its drop.
    await sql`CREATE TABLE emails_m199901 (id text PRIMARY KEY)`.execute(handle.db);
    await sql`CREATE TABLE email_events_m199901 (email_id text REFERENCES emails_m199901 (id))`.execute(handle.db);
    const report = await runRetention(handle.db, clock.now(), days);
    expect(report.dropped).toEqual(expect.arrayContaining(['emails_m199901', 'email_events_m199901']));
    const left = await sql`SELECT relname FROM pg_class WHERE relname LIKE '%_m199901'`.execute(handle.db);
    expect(left.rows).toEqual([]);
  });

  it('leaves a month unmade, children too, when its rows already sit in the DEFAULT partition', async () => {
    // An email from a clock far ahead, past every month made: kept by the DEFAULT partition.
    const ahead = monthStart(6, clock.now());
    clock.set(ahead);
    const early = await send('From a clock ahead');
    expect(
      await sql`SELECT tableoid::regclass::text AS part FROM emails WHERE id = ${early}`.execute(handle.db),
    ).toMatchObject({ rows: [{ part: 'emails_later' }] });
    const report = await runRetention(handle.db, clock.now(), days);
    const month = ahead.toISOString().slice(0, 7);
    expect(report.notMade).toEqual(expect.arrayContaining([`emails ${month}`, `email_events ${month}`]));
    // The next months are made, and the email still reads and its events still arrive.
    expect(report.notMade.filter((m) => m.startsWith('emails '))).toEqual([`emails ${month}`]);
    expect((await read(early)).json()).toMatchObject({ latestStatus: 'QUEUED' });
  });

  // PGlite has one connection: no second transaction can hold the table meanwhile.
  it.skipIf(!process.env.DATABASE_URL)(
    'leaves a month for the next run while a long read holds its table, instead of queueing writes behind it',
    async () => {
      clock.set(monthStart(3, clock.now()));
      const furthest = monthStart(2, clock.now()).toISOString().slice(0, 7);
      const report = await handle.db.transaction().execute(async (tx) => {
        await sql`SELECT count(*) FROM webhook_calls`.execute(tx);
        return runRetention(handle.db, clock.now(), days);
      });
      expect(report.waited).toContain(`webhook_calls ${furthest}`);
      expect(report.waited.every((m) => m.startsWith('webhook_calls '))).toBe(true);
      expect(report.notMade.filter((m) => m.startsWith('webhook_calls'))).toEqual([]);
      // Once the read is over, the next run makes it.
      expect((await runRetention(handle.db, clock.now(), days)).waited).toEqual([]);
      const made = await sql<{
        name: string | null;
      }>`SELECT to_regclass(${`webhook_calls_m${furthest.replace('-', '')}`})::text AS name`.execute(handle.db);
      expect(made.rows[0]!.name).not.toBeNull();
    },
  );
});
