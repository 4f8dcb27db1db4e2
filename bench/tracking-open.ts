// Open tracking (GET /t/o/{token}: token check, the 43-byte GIF with no-cache headers, the open handed
// to the group-commit writer) on PostgreSQL, beside a bare Fastify route answering the same GIF and
// doing nothing else, measured in the same run with the same load generator. Afterwards every
// answered open must be recorded (the writer does not drop any).
// Run: npm exec -- node bench/tracking-open.ts   (BENCH_DATABASE_URL to choose the server database)
//
// Two workloads, each in its own rounds:
// - later opens (the figure the target is about): EMAILS emails, sent through the API from a domain
//   marked verified directly in the database and then marked DELIVERED (no worker runs), opened in
//   turn, each with its own valid token. Each email's first open inserts its OPENED event; the rest,
//   nearly all of a run's opens, are later opens, which update the copy's tally
//   (src/emails/email-opens.ts). Readers reopening, image proxies and previews are most pixel traffic.
// - first opens: every request opens an email never opened before (copies of those emails made in
//   SQL, FIRST_OPENS_PER_ROUND per round), so each inserts its OPENED event, moves the email's
//   status, makes its webhook fan-out and fires the event's insert triggers (daily counters, address
//   activity): the most expensive open there is. Rounds of a fixed number of requests, so that none wraps around to
//   an email already opened.
import type { ChildProcess } from 'node:child_process';
import autocannon from 'autocannon';
import Fastify from 'fastify';
import { sql, type Kysely } from 'kysely';
import pg from 'pg';
import type { Database } from '../src/db/schema.ts';
import { BENCH_DATABASE_URL, ensureDatabase } from './database.ts';
import { BENCH_SECRET, benchHerald } from './herald-app.ts';
import { loadCells, machineLine, writeSection } from './results.ts';
import { removeTeams } from './remove-teams.ts';
import {
  announceToParent,
  type Figures,
  medianFigures,
  pinToCoreZero,
  serverCpu,
  startPinnedChild,
} from './measure.ts';

const DURATION_S = Number(process.env.BENCH_DURATION ?? 5);
const CONNECTIONS = 32;
const ROUNDS = 3;
const BASE_URL = BENCH_DATABASE_URL;
const EMAILS = 1_000;
/** First-open rounds: requests to warm up, then requests measured, each to an email never opened. */
const FIRST_OPEN_WARMUP = 10_000;
const FIRST_OPENS_MEASURED = 60_000;
const FIRST_OPENS_PER_ROUND = FIRST_OPEN_WARMUP + FIRST_OPENS_MEASURED;

interface ServerInfo {
  port: number;
  /** Bare: the no-op path. Herald: the team and the email ids; the parent signs their tokens. */
  paths?: string[];
  teamId?: number;
  laterIds?: string[];
  /** Per first-open round, its emails. */
  firstIds?: string[][];
}

async function serveBare(): Promise<ServerInfo> {
  const { TRANSPARENT_GIF, PIXEL_HEADERS } = await import('../src/tracking/pixel.ts');
  const app = Fastify({ logger: false });
  app.get('/noop', async (_request, reply) => reply.headers(PIXEL_HEADERS).send(TRANSPARENT_GIF));
  await app.listen({ port: 0, host: '127.0.0.1' });
  return { port: (app.server.address() as { port: number }).port, paths: ['/noop'] };
}

async function serveHerald(): Promise<ServerInfo> {
  const { deps, app, team, key, now } = await benchHerald('bench-tracking-open', 'pro', 1_000_000_000);
  const headers = { authorization: `Bearer ${key}` };
  const domainName = `track-${team.id}.bench.example.test`;
  const created = await app.inject({
    method: 'POST',
    url: '/api/v1/domains',
    headers,
    payload: { name: domainName, region: 'us-east-1' },
  });
  if (created.statusCode !== 200)
    throw new Error(`creating the domain answered ${created.statusCode}: ${created.body}`);
  const domainId = (created.json() as { id: number }).id;
  await deps.db
    .updateTable('domains')
    .set({ status: 'SUCCESS', verified_at: now, is_verifying: false, open_tracking: true })
    .where('id', '=', domainId)
    .execute();
  const laterIds: string[] = [];
  for (let i = 0; i < EMAILS; i += 100) {
    const payload = Array.from({ length: 100 }, (_, j) => ({
      from: `bench@${domainName}`,
      to: `reader-${i + j}@example.test`,
      subject: 'Opened',
      html: '<p>Hello</p>',
    }));
    const sent = await app.inject({ method: 'POST', url: '/api/v1/emails/batch', headers, payload });
    if (sent.statusCode !== 200) throw new Error(`sending answered ${sent.statusCode}: ${sent.body}`);
    laterIds.push(...(sent.json() as { data: { emailId: string }[] }).data.map((e) => e.emailId));
  }
  if (laterIds.length !== EMAILS || laterIds.some((id) => typeof id !== 'string'))
    throw new Error('the bench emails were not all stored');
  // As if the worker had delivered them: no worker runs here, and opens follow delivery.
  await deps.db.updateTable('emails').set({ status: 'DELIVERED' }).where('team_id', '=', team.id).execute();
  const firstIds = await copyEmails(deps.db, team.id, ROUNDS * FIRST_OPENS_PER_ROUND);
  // Statistics for the rows just seeded, as autovacuum would have them in service (it is off on the
  // bench server; the other benchmarks do the same).
  await sql`ANALYZE emails, email_recipients, email_events, email_opens, address_activity`.execute(deps.db);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const rounds = Array.from({ length: ROUNDS }, (_, r) =>
    firstIds.slice(r * FIRST_OPENS_PER_ROUND, (r + 1) * FIRST_OPENS_PER_ROUND),
  );
  return { port: (app.server.address() as { port: number }).port, teamId: team.id, laterIds, firstIds: rounds };
}

/**
 * `count` more DELIVERED emails of the team, as copies of the ones sent through the API (each with
 * its own id and recipient), made in SQL: sending hundreds of thousands through the API would take
 * minutes and pass the plan's daily limit.
 */
async function copyEmails(db: Kysely<Database>, teamId: number, count: number): Promise<string[]> {
  const copiesEach = Math.ceil(count / EMAILS);
  await sql`CREATE TEMPORARY TABLE bench_copies AS
    SELECT e.*, g AS copy FROM emails e, generate_series(1, ${copiesEach}::int) g WHERE e.team_id = ${teamId}`.execute(
    db,
  );
  await sql`UPDATE bench_copies SET id = 'emc' || copy || '_' || substr(id, 4)`.execute(db);
  const { rows } = await sql<{ id: string }>`SELECT id FROM bench_copies ORDER BY copy, id LIMIT ${count}`.execute(db);
  await sql`ALTER TABLE bench_copies DROP COLUMN copy`.execute(db);
  await sql`INSERT INTO emails SELECT * FROM bench_copies`.execute(db);
  await sql`INSERT INTO email_recipients (team_id, address, email_id)
    SELECT r.team_id, 'copy' || g || '-' || r.address, 'emc' || g || '_' || substr(r.email_id, 4)
    FROM email_recipients r, generate_series(1, ${copiesEach}::int) g WHERE r.team_id = ${teamId}`.execute(db);
  await sql`DROP TABLE bench_copies`.execute(db);
  return rows.map((row) => row.id);
}

/** Each request opens the next path in turn (the later-open rounds wrap around their emails). */
function inTurn(paths: string[]): autocannon.Request[] {
  let next = 0;
  return [{ method: 'GET', setupRequest: (request) => ({ ...request, path: paths[next++ % paths.length]! }) }];
}

const options = (url: string) => ({
  url,
  headers: { 'user-agent': 'Mozilla/5.0 (bench) HeraldMail/1.0' },
  connections: CONNECTIONS,
});

async function measure(
  child: ChildProcess,
  run: () => Promise<autocannon.Result>,
): Promise<Figures & { answered: number }> {
  const before = await serverCpu(child);
  const result = await run();
  const cpu = (await serverCpu(child)) - before;
  // Requests over the measured time, not autocannon's mean of whole seconds: a round of a fixed
  // number of requests ends within a second, and that second's few requests would count as one.
  return {
    rps: result.requests.total / result.duration,
    p99: result.latency.p99,
    non2xx: result.non2xx + result.errors,
    cpuMicros: cpu / result.requests.total,
    answered: result['2xx'],
  };
}

/** 2 s of warm-up (caches, JIT), then DURATION_S measured. */
async function loadFor(child: ChildProcess, url: string, paths: string[]) {
  const warm = await autocannon({ ...options(url), requests: inTurn(paths), duration: 2 });
  const figures = await measure(child, () =>
    autocannon({ ...options(url), requests: inTurn(paths), duration: DURATION_S }),
  );
  return { ...figures, answered: warm['2xx'] + figures.answered };
}

/**
 * A first-open round: each path once, the first FIRST_OPEN_WARMUP of them as the warm-up. autocannon
 * ends a run of a fixed number of requests at its next sampling tick, so the tick is 100 ms (the
 * default second rounded every round's time up to whole seconds, up to 20% of it).
 */
async function loadOnce(child: ChildProcess, url: string, paths: string[]) {
  const warm = await autocannon({
    ...options(url),
    requests: inTurn(paths.slice(0, FIRST_OPEN_WARMUP)),
    amount: FIRST_OPEN_WARMUP,
  });
  const measured = paths.slice(FIRST_OPEN_WARMUP);
  const figures = await measure(child, () =>
    autocannon({ ...options(url), requests: inTurn(measured), amount: measured.length, sampleInt: 100 }),
  );
  return { ...figures, answered: warm['2xx'] + figures.answered };
}

function startServer(kind: 'bare' | 'herald') {
  return startPinnedChild<ServerInfo>(import.meta.filename, ['serve', kind]);
}

/**
 * Waits until the answered opens are all recorded (the writers drain their backlogs): the opens
 * counted by the copies' tallies, and one OPENED event per copy opened. Both: the later opens'
 * count can reach the answered figure while the first-open writers still hold a backlog (autocannon
 * does not count the requests in flight when a timed run ends, which the server still records).
 */
async function recordedOpens(
  admin: pg.Client,
  teamId: number,
  expected: number,
  expectedEvents: number,
): Promise<{ count: number; events: number; drainMs: number }> {
  const start = Date.now();
  for (;;) {
    const { rows } = await admin.query<{ n: string; events: string }>(
      `SELECT coalesce(sum(o.open_count), 0) AS n, count(*) AS events FROM email_events e JOIN email_opens o ON o.email_id = e.email_id AND o.open_key = e.open_key
       WHERE e.team_id = $1 AND e.status = 'OPENED'`,
      [teamId],
    );
    const count = Number(rows[0]!.n);
    const events = Number(rows[0]!.events);
    if ((count >= expected && events >= expectedEvents) || Date.now() - start > 60_000)
      return { count, events, drainMs: Date.now() - start };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Both servers run side by side and are loaded in alternating rounds, so machine noise hits both. */
async function measureAll(admin: pg.Client) {
  const { Secrets } = await import('../src/platform/crypto.ts');
  const { openToken, OPEN_PATH } = await import('../src/tracking/tokens.ts');
  const bare = await startServer('bare');
  const herald = await startServer('herald');
  const teamId = herald.info.teamId!;
  const secrets = new Secrets(BENCH_SECRET);
  const pathsOf = (ids: string[]) =>
    ids.map((emailId) => `${OPEN_PATH}/${openToken(secrets, { teamId, emailId, recipient: null })}`);
  const laterPaths = pathsOf(herald.info.laterIds!);
  const bareUrl = `http://127.0.0.1:${bare.info.port}`;
  const heraldUrl = `http://127.0.0.1:${herald.info.port}`;
  try {
    const rounds = { bare: [] as Figures[], later: [] as Figures[], first: [] as Figures[] };
    let answered = 0;
    let firstAnswered = 0;
    for (let round = 0; round < ROUNDS; round++) {
      rounds.bare.push(await loadFor(bare.child, bareUrl, bare.info.paths!));
      const later = await loadFor(herald.child, heraldUrl, laterPaths);
      rounds.later.push(later);
      const first = await loadOnce(herald.child, heraldUrl, pathsOf(herald.info.firstIds![round]!));
      rounds.first.push(first);
      answered += later.answered + first.answered;
      firstAnswered += first.answered;
    }
    const recorded = await recordedOpens(admin, teamId, answered, firstAnswered + EMAILS);
    return {
      bare: medianFigures(rounds.bare),
      later: medianFigures(rounds.later),
      first: medianFigures(rounds.first),
      answered,
      firstAnswered,
      recorded,
      teamId,
    };
  } finally {
    bare.child.kill('SIGKILL');
    herald.child.kill('SIGKILL');
  }
}

if (process.argv[2] === 'serve') {
  announceToParent(process.argv[3] === 'bare' ? await serveBare() : await serveHerald());
} else {
  pinToCoreZero();
  await ensureDatabase(BASE_URL);
  const admin = new pg.Client({ connectionString: BASE_URL });
  await admin.connect();
  let measured: Awaited<ReturnType<typeof measureAll>>;
  try {
    measured = await measureAll(admin);
    // The bench team goes (its emails, events, domain and keys with it), so later runs start small.
    await removeTeams(admin, 'id = $1', [measured.teamId]);
  } finally {
    await admin.end();
  }
  const { bare, later, first, answered, firstAnswered, recorded } = measured;
  const ratio = later.rps / bare.rps;
  const percent = (value: number) => `${(value * 100).toFixed(0)}%`;
  // One OPENED event per email opened: the later-open emails' and every first-open request's.
  const laterEmailsOpened = recorded.events - firstAnswered;
  const body = [
    '## Tracking opens (tracking)',
    '',
    `\`npm exec -- node bench/tracking-open.ts\`: GET /t/o/{token} (signature check, the 43-byte GIF with no-cache headers, the open handed to the group-commit writer), from a domain with openTracking, each request with its own valid token, in two workloads. **Later opens** (the target's figure): ${EMAILS.toLocaleString('en-US')} emails marked DELIVERED, opened in turn: each email's first open inserts its OPENED event, every later open (nearly all of the run's, as readers reopening, image proxies and previews are most pixel traffic) updates its copy's tally of opens (email_opens: count, last open, latest later opens, and at most hourly the address's last open). **First opens**: every request opens an email never opened before (${FIRST_OPENS_MEASURED.toLocaleString('en-US')} measured after ${FIRST_OPEN_WARMUP.toLocaleString('en-US')} to warm up, per round; copies of the API-sent emails made in SQL), so each inserts its OPENED event, moves the email's status to OPENED and makes its webhook fan-out and fires the event's insert triggers (daily counters, address activity). Statistics taken after seeding (ANALYZE; autovacuum is off on this server). Baseline: a bare Fastify route answering the same GIF and headers, doing nothing else. ${CONNECTIONS} connections, median of ${ROUNDS} alternating rounds (bare and later opens: ${DURATION_S} s each after a 2 s warm-up; throughput is the requests answered over the measured time), autocannon pinned to core 0, server pinned to core 1 (taskset); PostgreSQL 15 on loopback, unpinned. ${machineLine()}.`,
    '',
    '| target | throughput | latency | server CPU per request | non-2xx + errors |',
    '|---|---|---|---|---|',
    `| bare Fastify route answering the GIF (baseline) | ${loadCells(bare, 1)} |`,
    `| GET /t/o/{token}, later opens | ${loadCells(later, 1)} |`,
    `| GET /t/o/{token}, first opens | ${loadCells(first, 1)} |`,
    '',
    `Throughput ratio, later opens: **${percent(ratio)}** of the bare route (target: at least 50%, ${ratio >= 0.5 ? 'met' : '**not met**'}); server CPU ratio (bare µs / open µs, what a CPU-bound server would reach; it includes writing the opens) ${percent(bare.cpuMicros / later.cpuMicros)}. ` +
      `First opens: **${percent(first.rps / bare.rps)}** of the bare route (target, issue 48: at least 50%, ${first.rps / bare.rps >= 0.5 ? 'met' : '**not met**'}; server CPU ratio ${percent(bare.cpuMicros / first.cpuMicros)}); the first-open writers, one transaction each at a time, are what limits them (see src/tracking/README.md). ` +
      `Opens answered (warm-ups included): ${answered.toLocaleString('en-US')}, of them ${firstAnswered.toLocaleString('en-US')} first opens; recorded in the database afterwards: ${recorded.count.toLocaleString('en-US')} opens in ${recorded.events.toLocaleString('en-US')} OPENED events (${laterEmailsOpened.toLocaleString('en-US')} of the ${EMAILS.toLocaleString('en-US')} later-open emails, one per first open) ` +
      `(${recorded.count >= answered && laterEmailsOpened === EMAILS ? 'all recorded' : '**some missing**'}; the backlog was written ${(recorded.drainMs / 1000).toFixed(1)} s after the last round).`,
  ].join('\n');
  console.log(body);
  writeSection('tracking-open', body);
}
