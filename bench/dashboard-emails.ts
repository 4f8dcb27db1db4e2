// The dashboard's email log at scale (issue 45), on PostgreSQL: one team with 5,000,000 emails
// (bench/dashboard-emails-data.ts). A listening Herald serves the built dashboard; Chromium, signed
// in by a one-time link, opens /emails: the time from navigation to the first 50 rows in the table,
// and from a click on Older to the next 50, beside the API call the page makes, timed alone in the
// same run with the same session (the baseline). Target: each at most 1.5 × its API call + 300 ms.
// Also the API alone for the contract's offset form and for each filter.
// Run: npm exec -- node bench/dashboard-emails.ts   (DASHBOARD_EMAILS_BENCH_DATABASE_URL to choose the
// database; by default herald_bench_dashboard next to BENCH_DATABASE_URL)
import { execFileSync } from 'node:child_process';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import pino from 'pino';
import { chromium, type Page } from 'playwright-core';
import { buildApp } from '../src/app.ts';
import { buildDeps } from '../src/build-deps.ts';
import { loadConfig } from '../src/config.ts';
import { migrate } from '../src/db/migrate.ts';
import { updateTeam } from '../src/accounts/index.ts';
import { BENCH_DATABASE_URL, ensureDatabase } from './database.ts';
import { DATA_MARK, EMAILS, generateData, OWNER_EMAIL } from './dashboard-emails-data.ts';
import { BENCH_SECRET } from './herald-app.ts';
import { median, percentile } from './measure.ts';
import { machineLine, verdict, writeSection } from './results.ts';

const DATABASE_URL =
  process.env.DASHBOARD_EMAILS_BENCH_DATABASE_URL ?? BENCH_DATABASE_URL.replace(/\/[^/]*$/, '/herald_bench_dashboard');
const ADMIN_TOKEN = 'bench-admin-token-0123456789';
const API_RUNS = Number(process.env.BENCH_RUNS ?? 30);
const PAGE_RUNS = Number(process.env.BENCH_PAGE_RUNS ?? 10);
const LIST = '/api/v1/emails?paging=cursor&fields=summary&limit=50';
const loadBefore = os.loadavg();

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** The system's Chromium where there is one, else the one @sparticuz/chromium ships (as test/web does). */
async function launch() {
  const system = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((file) => {
    try {
      execFileSync(file, ['--version'], { stdio: 'ignore' });
      return true;
    } catch {
      return false;
    }
  });
  const packaged = system ? null : (await import('@sparticuz/chromium')).default;
  if (packaged) packaged.setGraphicsMode = false;
  return chromium.launch({
    executablePath: system ?? (await packaged!.executablePath()),
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run', '--disable-extensions'],
  });
}

// In the page, as strings (the server's tsconfig has no DOM): the table's rows with their links.
const ROWS = `document.querySelectorAll('table[aria-label="Emails"] tbody tr:not([aria-hidden]) a')`;
/** Resolves, after the next frame, with performance.now() once 50 rows show whose first link is not `before`. */
const rowsShown = (before: string | null) => `new Promise((resolve) => {
  const ready = () => { const rows = ${ROWS}; return rows.length >= 50 && rows[0].getAttribute('href') !== ${JSON.stringify(before)}; };
  const done = () => requestAnimationFrame(() => resolve(performance.now()));
  if (ready()) return done();
  const observer = new MutationObserver(() => { if (ready()) { observer.disconnect(); done(); } });
  observer.observe(document.body, { childList: true, subtree: true });
})`;
/** The list request's resource timing: when it started after navigation, and how long it took. */
const listTiming = (cursor: boolean) => `(() => {
  const entries = performance.getEntriesByType('resource').filter((e) => e.name.includes('/v1/emails?') && e.name.includes('cursor=') === ${cursor});
  const e = entries[entries.length - 1];
  return e ? [e.startTime, e.responseEnd - e.startTime] : [NaN, NaN];
})()`;

await ensureDatabase(DATABASE_URL);
const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const config = {
  ...loadConfig({}),
  databaseUrl: DATABASE_URL,
  secret: BENCH_SECRET,
  adminToken: ADMIN_TOKEN,
  logLevel: 'silent' as const,
  publicUrl: base,
};
const deps = await buildDeps(config, { logger: pino({ level: 'silent' }) });
const browser = await launch();
try {
  // Migrating builds emails_team_status_created on an earlier run's 5,000,000 emails (0026).
  await migrate(deps.database);
  const { db } = deps;
  const found = await db.selectFrom('teams').select('id').where('name', '=', DATA_MARK).executeTakeFirst();
  const data = found ? { teamId: found.id, seconds: null } : await generateData(db);
  const counted = await sql<{
    n: string;
  }>`SELECT count(*) AS n FROM emails WHERE team_id = ${data.teamId}::int`.execute(db);
  if (Number(counted.rows[0]!.n) !== EMAILS) throw new Error(`expected ${EMAILS} emails, found ${counted.rows[0]!.n}`);
  await updateTeam(db, data.teamId, { apiRateLimit: 1_000_000_000 }, new Date());
  // The dashboard as npm install builds it (skipped when the sources are unchanged).
  execFileSync(process.execPath, [path.join(import.meta.dirname, '..', 'scripts', 'build-web.js')], { stdio: 'pipe' });
  // DASHBOARD_DIR: a dashboard built elsewhere (a change to the shell, measured before it is made here).
  const app = await buildApp(deps, { dashboardDir: process.env.DASHBOARD_DIR || undefined });
  await app.listen({ port, host: '127.0.0.1' });

  const link = await app.inject({
    method: 'POST',
    url: '/admin/v1/sign-in-links',
    headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    payload: { email: OWNER_EMAIL },
  });
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  context.setDefaultTimeout(60_000);
  const signIn = await context.newPage();
  await signIn.goto((link.json() as { url: string }).url);
  await signIn.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
  await signIn.close();
  const cookie = (await context.cookies()).map((c) => `${c.name}=${c.value}`).join('; ');
  const headers = { cookie, 'x-herald-team': String(data.teamId) };

  /** The API alone: milliseconds of each of `runs` requests (after 10 unmeasured), and the last body. */
  async function api(
    url: string,
    runs = API_RUNS,
  ): Promise<{ ms: number[]; body: Record<string, unknown>; bytes: number }> {
    const ms: number[] = [];
    let text = '';
    for (let i = 0; i < runs + 10; i++) {
      const started = performance.now();
      const response = await fetch(base + url, { headers });
      text = await response.text();
      if (response.status !== 200) throw new Error(`${url}: ${response.status} ${text}`);
      if (i >= 10) ms.push(performance.now() - started);
    }
    return { ms, body: JSON.parse(text) as Record<string, unknown>, bytes: Buffer.byteLength(text) };
  }

  const first = await api(LIST);
  const nextCursor = first.body.nextCursor as string;
  const next = await api(`${LIST}&cursor=${encodeURIComponent(nextCursor)}`);

  /** Opens /emails in a new tab of the signed-in context: navigation to 50 rows, and the list request's timing. */
  async function open(): Promise<{ page: Page; rowsAt: number; requestAt: number; requestMs: number }> {
    const page = await context.newPage();
    await page.goto(`${base}/emails`, { waitUntil: 'commit' });
    const rowsAt = (await page.evaluate(rowsShown(null))) as number;
    const [requestAt, requestMs] = (await page.evaluate(listTiming(false))) as [number, number];
    return { page, rowsAt, requestAt, requestMs };
  }
  /** Where the time goes in a page: each request's start and end after navigation (ms), and first paint. */
  const timeline = `(() => {
    const nav = performance.getEntriesByType('navigation')[0];
    const paint = performance.getEntriesByName('first-contentful-paint')[0];
    const items = [['document', 0, nav.responseEnd], ['DOMContentLoaded', nav.domContentLoadedEventEnd, nav.domContentLoadedEventEnd]];
    if (paint) items.push(['first paint', paint.startTime, paint.startTime]);
    for (const e of performance.getEntriesByType('resource')) {
      const url = new URL(e.name);
      items.push([url.pathname.replace(/^.*\\//, '/') + (url.search ? '?…' : ''), e.startTime, e.responseEnd]);
    }
    return items.sort((a, b) => a[1] - b[1]).map(([n, s, e]) => n + ' ' + Math.round(s) + '–' + Math.round(e)).join(', ');
  })()`;

  /** Clicks Older: the click to the next 50 rows, and the request's own time when it went out (none when prefetched). */
  async function older(page: Page): Promise<{ ms: number; requestMs: number }> {
    const before = await page.evaluate(`${ROWS}[0].getAttribute('href')`);
    const ms = (await page.evaluate(`(async () => {
      const shown = ${rowsShown(before as string)};
      const started = performance.now();
      [...document.querySelectorAll('button')].find((b) => b.textContent === 'Older').click();
      return (await shown) - started;
    })()`)) as number;
    const [, requestMs] = (await page.evaluate(listTiming(true))) as [number, number];
    return { ms, requestMs };
  }

  // Cold: the browser's cache emptied first (the JS and CSS downloaded again); then warm tabs.
  const cdp = await context.newCDPSession((await context.pages())[0] ?? (await context.newPage()));
  await cdp.send('Network.clearBrowserCache');
  const cold = await open();
  await cold.page.close();
  const traced = await open();
  const trace = (await traced.page.evaluate(timeline)) as string;
  await traced.page.close();
  console.log(`one warm tab, ms after navigation: ${trace}`);
  const warm = { rows: [] as number[], request: [] as number[], requestAt: [] as number[] };
  const paging = { immediate: [] as number[], immediateRequest: [] as number[], settled: [] as number[] };
  for (let i = 0; i < PAGE_RUNS + 1; i++) {
    const run = await open();
    // Older at once: the next page's request goes out with the click (the idle prefetch has not run).
    const immediate = await older(run.page);
    await run.page.close();
    const settledRun = await open();
    // Older once the page is idle: the next page was prefetched.
    await settledRun.page.waitForLoadState('networkidle');
    const settled = await older(settledRun.page);
    await settledRun.page.close();
    if (i === 0) continue; // the first warm round warms the server's caches too
    warm.rows.push(run.rowsAt);
    warm.request.push(run.requestMs);
    warm.requestAt.push(run.requestAt);
    paging.immediate.push(immediate.ms);
    paging.immediateRequest.push(immediate.requestMs);
    paging.settled.push(settled.ms);
  }

  // The API alone, the other forms.
  const status = (first.body.data as { latestStatus: string }[])[0]!.latestStatus;
  const extra = {
    full: await api('/api/v1/emails?paging=cursor&limit=50', 10),
    offsetFirst: await api('/api/v1/emails?limit=50', 5),
    offsetDeep: await api('/api/v1/emails?limit=50&page=50000', 5),
    complained: await api(`${LIST}&status=COMPLAINED`, 10),
    twoStatuses: await api(`${LIST}&status=BOUNCED&status=COMPLAINED`, 10),
    address: await api(`${LIST}&search=user4242%40example.test`, 10),
    common: await api(`${LIST}&search=receipt`, 10),
    rare: await api(`${LIST}&search=invoice`, 10),
  };
  await app.close();

  const ms = (value: number) => `${value.toFixed(1)} ms`;
  const row = (label: string, values: number[]) =>
    `| ${label} | ${ms(median(values))} | ${ms(percentile(values, 0.95))} |`;
  const apiFirst = median(first.ms);
  const apiNext = median(next.ms);
  const firstTarget = 1.5 * apiFirst + 300;
  const nextTarget = 1.5 * apiNext + 300;
  const loadAfter = os.loadavg();
  const load = (l: number[]) => l.map((v) => v.toFixed(1)).join(' / ');
  const body = [
    '## Dashboard email log at scale (issue 45)',
    '',
    `\`npm exec -- node bench/dashboard-emails.ts\`: one Pro team with ${EMAILS.toLocaleString('en-US')} emails over 90 days and their recipient rows (\`bench/dashboard-emails-data.ts\`, set-based SQL${data.seconds === null ? ', kept from an earlier run' : `, generated in ${data.seconds.toFixed(0)} s`}), PostgreSQL 15 on loopback (database \`${new URL(DATABASE_URL).pathname.slice(1)}\`). A listening Herald serves the built dashboard; headless Chromium (playwright-core), signed in by a one-time link, opens \`/emails\` in a new tab ${PAGE_RUNS} times after one unmeasured round (HTTP cache warm, as for a returning user; one more time first with the cache emptied): navigation start to the 50th row in the table, after the next frame. The page's list request is \`GET ${LIST}\` (cursor paging, no bodies); the baseline is that request alone from Node over loopback with the same session cookie, ${API_RUNS} times after 10 unmeasured, in the same run. Load average (1/5/15 min) ${load(loadBefore)} before, ${load(loadAfter)} after: the machine is shared with other work. ${machineLine()}.`,
    '',
    '| measured | median | p95 |',
    '|---|---:|---:|',
    row('API alone: first page (baseline)', first.ms),
    row('API alone: next page, by cursor (baseline)', next.ms),
    row('page: navigation to 50 rows visible', warm.rows),
    `| page: the same with an empty browser cache (once) | ${ms(cold.rowsAt)} | |`,
    row('… of which: the list request leaves after navigation', warm.requestAt),
    row('… of which: the list request in the page', warm.request),
    row('page: Older clicked at once, to the next 50 rows', paging.immediate),
    row('… of which: that request in the page', paging.immediateRequest),
    row('page: Older clicked once idle (next page prefetched)', paging.settled),
    '',
    `Targets: first 50 rows within 1.5 × the API call + 300 ms = ${ms(firstTarget)}: ${ms(median(warm.rows))}, ${verdict(median(warm.rows) <= firstTarget)}; the next 50 within ${ms(nextTarget)}: ${ms(median(paging.immediate))} clicked at once, ${verdict(median(paging.immediate) <= nextTarget)} (${ms(median(paging.settled))} once prefetched).`,
    '',
    'The API alone, the other forms (same session, medians):',
    '',
    '| request | median | p95 | body |',
    '|---|---:|---:|---:|',
    ...(
      [
        ["cursor, fields=summary (the page's)", first],
        ['cursor, full form (html and text)', extra.full],
        ['contract: page 1 with its exact count', extra.offsetFirst],
        ['contract: page 50,000 (OFFSET 2,499,950)', extra.offsetDeep],
        ['status=COMPLAINED (0.05%)', extra.complained],
        ['status=BOUNCED&status=COMPLAINED', extra.twoStatuses],
        ['search: a whole address (25 emails)', extra.address],
        ['search: "receipt" (a quarter of the emails)', extra.common],
        ['search: "invoice" (50 in all: stops at 20,000 read)', extra.rare],
      ] as const
    ).map(
      ([label, r]) =>
        `| ${label} | ${ms(median(r.ms))} | ${ms(percentile(r.ms, 0.95))} | ${(r.bytes / 1024).toFixed(1)} KB |`,
    ),
    '',
    `One warm tab, each request's start–end in ms after navigation: ${trace}. The session read and the list request are started by index.html's inline script, before the entry is fetched (web/src/api/inline-reads.ts), and the page's chunk by the entry's first import (web/src/boot-reads.ts); React renders once that chunk is here, so the page renders without React.lazy and its Suspense throttle (web/src/routes.ts). Measure another build with DASHBOARD_DIR=<its web/dist>.`,
    '',
    `The newest email's status: ${status}. "invoice" answered ${(extra.rare.body.data as unknown[]).length} of its emails with searchStoppedAt ${JSON.stringify(extra.rare.body.searchStoppedAt)}.`,
  ].join('\n');
  console.log(body);
  writeSection('dashboard-emails', body);
} finally {
  await browser.close();
  await deps.close();
}
