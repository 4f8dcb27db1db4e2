// Open tracking (GET /t/o/{token}: token check, the 43-byte GIF with no-cache headers, the OPENED
// event handed to the group-commit writer) on PostgreSQL, beside a bare Fastify route answering the
// same GIF and doing nothing else, measured in the same run with the same load generator. Afterwards
// every answered open must be in email_events (the writer does not drop any).
// Run: npm exec -- node bench/tracking-open.ts   (BENCH_DATABASE_URL to choose the server database)
//
// EMAILS emails, sent through the API from a domain marked verified directly in the database and then
// marked DELIVERED (no worker runs), are opened in turn, each with its own valid token (one email
// opened tens of thousands of times in seconds is not a workload). Each email's first open inserts
// its OPENED event; the rest, nearly all of a run's opens, are later opens, which update the copy's
// tally (src/emails/email-opens.ts).
import type { ChildProcess } from 'node:child_process';
import autocannon from 'autocannon';
import Fastify from 'fastify';
import { sql } from 'kysely';
import pg from 'pg';
import { BENCH_DATABASE_URL, ensureDatabase } from './database.ts';
import { benchHerald } from './herald-app.ts';
import { machineLine, writeSection } from './results.ts';
import { announceToParent, type Figures, medianFigures, pinToCoreZero, serverCpu, startPinnedChild } from './measure.ts';

const DURATION_S = Number(process.env.BENCH_DURATION ?? 5);
const CONNECTIONS = 32;
const ROUNDS = 3;
const BASE_URL = BENCH_DATABASE_URL;
const EMAILS = 1_000;

interface ServerInfo {
  port: number;
  paths: string[];
  teamId?: number;
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
  const { openToken, OPEN_PATH } = await import('../src/tracking/tokens.ts');
  const headers = { authorization: `Bearer ${key}` };
  const domainName = `track-${team.id}.bench.example.test`;
  const created = await app.inject({ method: 'POST', url: '/api/v1/domains', headers, payload: { name: domainName, region: 'us-east-1' } });
  if (created.statusCode !== 200) throw new Error(`creating the domain answered ${created.statusCode}: ${created.body}`);
  const domainId = (created.json() as { id: number }).id;
  await deps.db.updateTable('domains').set({ status: 'SUCCESS', verified_at: now, is_verifying: false, open_tracking: true }).where('id', '=', domainId).execute();
  const ids: string[] = [];
  for (let i = 0; i < EMAILS; i += 100) {
    const payload = Array.from({ length: 100 }, (_, j) => ({ from: `bench@${domainName}`, to: `reader-${i + j}@example.test`, subject: 'Opened', html: '<p>Hello</p>' }));
    const sent = await app.inject({ method: 'POST', url: '/api/v1/emails/batch', headers, payload });
    if (sent.statusCode !== 200) throw new Error(`sending answered ${sent.statusCode}: ${sent.body}`);
    ids.push(...(sent.json() as { data: { emailId: string }[] }).data.map((e) => e.emailId));
  }
  if (ids.length !== EMAILS || ids.some((id) => typeof id !== 'string')) throw new Error('the bench emails were not all stored');
  // As if the worker had delivered them: no worker runs here, and opens follow delivery.
  await deps.db.updateTable('emails').set({ status: 'DELIVERED' }).where('team_id', '=', team.id).execute();
  // Statistics for the rows just seeded, as autovacuum would have them in service (it is off on the
  // bench server; the other benchmarks do the same).
  await sql`ANALYZE emails, email_recipients, email_events, email_opens, address_activity`.execute(deps.db);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const paths = ids.map((emailId) => `${OPEN_PATH}/${openToken(deps.secrets, { teamId: team.id, emailId, recipient: null })}`);
  return { port: (app.server.address() as { port: number }).port, paths, teamId: team.id };
}

let next = 0;
/** Each request opens the next email in turn. */
const openRequests = (paths: string[]): autocannon.Request[] => [{ method: 'GET', setupRequest: (request) => ({ ...request, path: paths[next++ % paths.length]! }) }];

async function load(child: ChildProcess, url: string, paths: string[]): Promise<Figures & { answered: number }> {
  const options = { url, headers: { 'user-agent': 'Mozilla/5.0 (bench) HeraldMail/1.0' }, connections: CONNECTIONS };
  const warm = await autocannon({ ...options, requests: openRequests(paths), duration: 2 }); // warm-up: caches, JIT
  const before = await serverCpu(child);
  const result = await autocannon({ ...options, requests: openRequests(paths), duration: DURATION_S });
  const cpu = (await serverCpu(child)) - before;
  return {
    rps: result.requests.average,
    p99: result.latency.p99,
    non2xx: result.non2xx + result.errors,
    cpuMicros: cpu / result.requests.total,
    answered: warm['2xx'] + result['2xx'],
  };
}

function startServer(kind: 'bare' | 'herald') {
  return startPinnedChild<ServerInfo>(import.meta.filename, ['serve', kind]);
}

/** Waits until the answered opens are all recorded (the writer drains its backlog): the opens counted
 * by the copies' tallies, one OPENED event per copy. */
async function recordedOpens(admin: pg.Client, teamId: number, expected: number): Promise<{ count: number; drainMs: number }> {
  const start = Date.now();
  for (;;) {
    const { rows } = await admin.query<{ n: string }>(
      `SELECT coalesce(sum(o.open_count), 0) AS n FROM email_events e JOIN email_opens o ON o.email_id = e.email_id AND o.open_key = e.open_key
       WHERE e.team_id = $1 AND e.status = 'OPENED'`,
      [teamId],
    );
    const count = Number(rows[0]!.n);
    if (count >= expected || Date.now() - start > 60_000) return { count, drainMs: Date.now() - start };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Both servers run side by side and are loaded in alternating rounds, so machine noise hits both. */
async function measureBoth(admin: pg.Client) {
  const bare = await startServer('bare');
  const herald = await startServer('herald');
  try {
    const rounds: { bare: Figures[]; herald: Figures[] } = { bare: [], herald: [] };
    let answered = 0;
    for (let round = 0; round < ROUNDS; round++) {
      rounds.bare.push(await load(bare.child, `http://127.0.0.1:${bare.info.port}`, bare.info.paths));
      const figures = await load(herald.child, `http://127.0.0.1:${herald.info.port}`, herald.info.paths);
      answered += figures.answered;
      rounds.herald.push(figures);
    }
    const recorded = await recordedOpens(admin, herald.info.teamId!, answered);
    return { bare: medianFigures(rounds.bare), herald: medianFigures(rounds.herald), answered, recorded, teamId: herald.info.teamId! };
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
  let measured: Awaited<ReturnType<typeof measureBoth>>;
  try {
    measured = await measureBoth(admin);
    // The bench team goes (its email, events, domain and keys with it), so later runs start small.
    await admin.query('DELETE FROM teams WHERE id = $1', [measured.teamId]);
  } finally {
    await admin.end();
  }
  const { bare, herald, answered, recorded } = measured;
  const ratio = herald.rps / bare.rps;
  const fmt = (f: Figures) => `${Math.round(f.rps).toLocaleString('en-US')} req/s | p99 ${f.p99} ms | ${f.cpuMicros.toFixed(1)} µs | ${f.non2xx}`;
  const body = [
    '## Tracking opens (tracking)',
    '',
    `\`npm exec -- node bench/tracking-open.ts\`: GET /t/o/{token} (signature check, the 43-byte GIF with no-cache headers, the open handed to the group-commit writer) for ${EMAILS.toLocaleString('en-US')} emails marked DELIVERED, from a domain with openTracking, each request opening the next email with its own valid token: each email's first open inserts its OPENED event, every later open (nearly all of the run's) updates the email's tally of opens (email_opens: count, last open, latest later opens) and, at most hourly, the address's last open. Statistics taken after seeding (ANALYZE; autovacuum is off on this server). Baseline: a bare Fastify route answering the same GIF and headers, doing nothing else. ${CONNECTIONS} connections, median of ${ROUNDS} alternating rounds of ${DURATION_S} s (each after a 2 s warm-up), autocannon pinned to core 0, server pinned to core 1 (taskset); PostgreSQL 15 on loopback, unpinned. ${machineLine()}.`,
    '',
    '| target | throughput | latency | server CPU per request | non-2xx + errors |',
    '|---|---|---|---|---|',
    `| bare Fastify route answering the GIF (baseline) | ${fmt(bare)} |`,
    `| GET /t/o/{token} | ${fmt(herald)} |`,
    '',
    `Throughput ratio: **${(ratio * 100).toFixed(0)}%** of the bare route (target: at least 50%, ${ratio >= 0.5 ? 'met' : '**not met**'}). ` +
      `Server CPU ratio (bare µs / open µs, what a CPU-bound server would reach; it includes writing the opens: one recordOpens statement per group-commit batch): **${((bare.cpuMicros / herald.cpuMicros) * 100).toFixed(0)}%**. ` +
      `Opens answered (warm-ups included): ${answered.toLocaleString('en-US')}; opens recorded in the database afterwards: ${recorded.count.toLocaleString('en-US')} ` +
      `(${recorded.count >= answered ? 'all recorded' : '**some missing**'}; the backlog was written ${(recorded.drainMs / 1000).toFixed(1)} s after the last round).`,
  ].join('\n');
  console.log(body);
  writeSection('tracking-open', body);
}
