// Sending one email (POST /api/v1/emails: key lookup, access policy, rate limit, idempotency on half
// the requests, then queueEmails in a transaction shared with concurrent sends: the plan, domain and
// suppression read, the quota reserved under the lock, the email with its event and recipient rows,
// the key completed; the delivery queue announced after commit) on
// PostgreSQL, beside a bare Fastify route doing one INSERT of a similar row through `pg` into a
// scratch table of the same database, measured in the same run with the same load generator.
// Run: npm exec -- node bench/email-send.ts   (BENCH_DATABASE_URL to choose the server database)
//
// The sending domain is created through the API and then marked verified directly in the database
// (status SUCCESS, verified_at now): no DNS server or domain-check worker runs in the benchmark.
import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import type autocannon from 'autocannon';
import Fastify from 'fastify';
import pg from 'pg';
import { BENCH_DATABASE_URL, ensureDatabase } from './database.ts';
import { benchHerald } from './herald-app.ts';
import { loadCells, machineLine, verdict, writeSection } from './results.ts';
import { removeTeams } from './remove-teams.ts';
import {
  announceToParent,
  type Figures,
  medianFigures,
  pinToCoreZero,
  loadFigures,
  startPinnedChild,
} from './measure.ts';

const DURATION_S = Number(process.env.BENCH_DURATION ?? 5);
const CONNECTIONS = 50;
const ROUNDS = 5;
const BASE_URL = BENCH_DATABASE_URL;
/** Pool size of both servers (Herald's default). */
const POOL_SIZE = 10;
const SCRATCH = 'bench_send_rows';

/** About 2 KB of HTML. */
const HTML = `<!doctype html><html><body><h1>Your weekly summary</h1>${Array.from(
  { length: 19 },
  (_, i) =>
    `<p style="margin:0 0 12px">Paragraph ${i + 1}: here is what happened on your account this week, in brief.</p>`,
).join('')}</body></html>`;
const RECIPIENT = 'reader@example.test';
const SUBJECT = 'Your weekly summary';

interface ServerInfo {
  port: number;
  key?: string;
  teamId?: number;
  from?: string;
}

async function serveBare(): Promise<ServerInfo> {
  const pool = new pg.Pool({ connectionString: BASE_URL, max: POOL_SIZE });
  await pool.query(`CREATE TABLE IF NOT EXISTS ${SCRATCH} (
    id text PRIMARY KEY,
    team_id integer NOT NULL,
    "from" text NOT NULL,
    "to" jsonb,
    subject text NOT NULL,
    html text,
    status text NOT NULL,
    run_at timestamptz NOT NULL,
    created_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL
  )`);
  await pool.query(`TRUNCATE ${SCRATCH}`);
  const app = Fastify({ logger: false, bodyLimit: 20 * 1024 * 1024 });
  app.post('/emails', async (request) => {
    const body = request.body as { from: string; to: string; subject: string; html: string };
    const id = `em_${randomUUID()}`;
    const now = new Date();
    await pool.query(
      `INSERT INTO ${SCRATCH} (id, team_id, "from", "to", subject, html, status, run_at, created_at, updated_at)
       VALUES ($1, 1, $2, $3, $4, $5, 'QUEUED', $6, $6, $6)`,
      [id, body.from, JSON.stringify(body.to), body.subject, body.html, now],
    );
    return { emailId: id };
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  return { port: (app.server.address() as { port: number }).port };
}

async function serveHerald(): Promise<ServerInfo> {
  const { deps, app, team, key, now } = await benchHerald('bench-email-send', 'pro', 1_000_000_000);
  // The domain is made through the API (its own DKIM key), then marked verified in the database.
  const domainName = `send-${team.id}.bench.example.test`;
  const created = await app.inject({
    method: 'POST',
    url: '/api/v1/domains',
    headers: { authorization: `Bearer ${key}` },
    payload: { name: domainName, region: 'us-east-1' },
  });
  if (created.statusCode !== 200)
    throw new Error(`creating the domain answered ${created.statusCode}: ${created.body}`);
  const domainId = (created.json() as { id: number }).id;
  await deps.db
    .updateTable('domains')
    .set({ status: 'SUCCESS', verified_at: now, is_verifying: false })
    .where('id', '=', domainId)
    .execute();
  await app.listen({ port: 0, host: '127.0.0.1' });
  return {
    port: (app.server.address() as { port: number }).port,
    key,
    teamId: team.id,
    from: `Herald Bench <bench@${domainName}>`,
  };
}

let keyCounter = 0;
const RUN = randomUUID().slice(0, 8);

/** One request definition: every other request carries a fresh Idempotency-Key. */
function sendRequests(path: string, from: string): autocannon.Request[] {
  const body = JSON.stringify({ from, to: RECIPIENT, subject: SUBJECT, html: HTML });
  return [
    {
      method: 'POST',
      path,
      body,
      setupRequest: (request) => {
        keyCounter += 1;
        const headers = { ...request.headers };
        if (keyCounter % 2 === 0) headers['idempotency-key'] = `bench-${RUN}-${keyCounter}`;
        else delete headers['idempotency-key'];
        return { ...request, headers };
      },
    },
  ];
}

async function load(
  child: ChildProcess,
  url: string,
  path: string,
  from: string,
  headers: Record<string, string>,
): Promise<Figures> {
  const options = { url, headers: { 'content-type': 'application/json', ...headers }, connections: CONNECTIONS };
  return loadFigures(child, options, DURATION_S, () => sendRequests(path, from));
}

function startServer(kind: 'bare' | 'herald') {
  return startPinnedChild<ServerInfo>(import.meta.filename, ['serve', kind]);
}

/** Both servers run side by side and are loaded in alternating rounds, so machine noise hits both. */
async function measureBoth(admin: pg.Client): Promise<{ bare: Figures; herald: Figures; teamId: number }> {
  const bare = await startServer('bare');
  const herald = await startServer('herald');
  const teamId = herald.info.teamId!;
  try {
    const rounds: { bare: Figures[]; herald: Figures[] } = { bare: [], herald: [] };
    for (let round = 0; round < ROUNDS; round++) {
      rounds.bare.push(await load(bare.child, `http://127.0.0.1:${bare.info.port}`, '/emails', herald.info.from!, {}));
      // The pro plan's daily limit (50,000) could refuse a long run: each round starts from zero usage.
      await admin.query('DELETE FROM team_daily_usage WHERE team_id = $1', [teamId]);
      rounds.herald.push(
        await load(herald.child, `http://127.0.0.1:${herald.info.port}`, '/api/v1/emails', herald.info.from!, {
          authorization: `Bearer ${herald.info.key}`,
        }),
      );
    }
    return { bare: medianFigures(rounds.bare), herald: medianFigures(rounds.herald), teamId };
  } finally {
    bare.child.kill('SIGTERM');
    herald.child.kill('SIGTERM');
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
    // The stored emails are QUEUED with nobody to deliver them: remove the bench team (its emails,
    // events, domain and keys go with it) so no later worker or benchmark picks them up.
    await removeTeams(admin, 'id = $1', [measured.teamId]);
    await admin.query(`DROP TABLE IF EXISTS ${SCRATCH}`);
  } finally {
    await admin.end();
  }
  const { bare, herald } = measured;
  const ratio = herald.rps / bare.rps;
  const body = [
    '## Send one email (emails)',
    '',
    `\`npm exec -- node bench/email-send.ts\`: POST /api/v1/emails, one recipient, ${(HTML.length / 1024).toFixed(1)} KB of HTML, from a domain created through the API and then marked verified directly in the database (status SUCCESS, verified_at; no DNS check runs), a fresh \`Idempotency-Key\` on every other request; team on the pro plan with a very large API rate limit, its \`team_daily_usage\` cleared before each round. ${CONNECTIONS} connections, median of ${ROUNDS} alternating rounds of ${DURATION_S} s (each after a 2 s warm-up), autocannon pinned to core 0, server pinned to core 1 (taskset), pool of ${POOL_SIZE} connections each; PostgreSQL on loopback. ${machineLine()}.`,
    '',
    '| target | throughput | latency | server CPU per request | non-2xx + errors |',
    '|---|---|---|---|---|',
    `| bare Fastify route: one \`INSERT\` of a similar row through \`pg\` (baseline) | ${loadCells(bare)} |`,
    `| POST /api/v1/emails | ${loadCells(herald)} |`,
    '',
    `Throughput ratio: **${(ratio * 100).toFixed(0)}%** of the bare route (target: at least 50%, ${verdict(ratio >= 0.5)}). ` +
      `p99 ${herald.p99} ms against ${bare.p99} ms, ${(herald.p99 / bare.p99).toFixed(2)} × (target: at most 1.5 × the bare route's p99 in the same run, ${verdict(herald.p99 <= 1.5 * bare.p99)}).`,
  ].join('\n');
  console.log(body);
  writeSection('email-send', body);
}
