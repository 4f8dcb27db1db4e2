// One-time codes on PostgreSQL: POST /api/v1/verify/send (email channel, the `log` transport; key
// lookup, access, the context and risk counts in one read, risk scoring, the rate limiter, then the
// code row stored with its email through queueEmails, in a transaction shared with concurrent
// sends) and POST /api/v1/verify/check (one UPDATE: the guess compared blinded under the row lock
// and its outcome stored), each beside a
// bare Fastify route doing one INSERT through `pg`, measured in the same run with the same load.
// Send: a fresh recipient and client IP per request (no limit or velocity signal in the way; the
// team's conversion signal fires during the run, as it would for codes nobody checks). Check: codes
// seeded with known values, each checked once with the right code (a later lap answers already_used).
// Run: npm exec -- node bench/verify.ts   (BENCH_DATABASE_URL to choose the server database)
import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import type autocannon from 'autocannon';
import Fastify from 'fastify';
import pg from 'pg';
import { Secrets } from '../src/platform/crypto.ts';
import { BENCH_DATABASE_URL, ensureDatabase } from './database.ts';
import { BENCH_SECRET, benchHerald } from './herald-app.ts';
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
const ROUNDS = 3;
const BASE_URL = BENCH_DATABASE_URL;
const POOL_SIZE = 10;
const SCRATCH = 'bench_verify_rows';
const SEEDED = 150_000;
const NOTE =
  'Send: the context and risk counts in one read, then the email through queueEmails and the code row beside it, in a transaction which concurrent sends of the process share (src/emails/send-batch.ts). Check takes one statement, right code or wrong, which concurrent checks of different codes in the process share.';

interface ServerInfo {
  port: number;
  key?: string;
  teamId?: number;
}

async function serveBare(): Promise<ServerInfo> {
  const pool = new pg.Pool({ connectionString: BASE_URL, max: POOL_SIZE });
  await pool.query(`CREATE TABLE IF NOT EXISTS ${SCRATCH} (
    id text PRIMARY KEY, team_id integer NOT NULL, to_address text NOT NULL, status text NOT NULL,
    code_hash bytea NOT NULL, attempts_remaining integer NOT NULL, expires_at timestamptz NOT NULL,
    created_at timestamptz NOT NULL, updated_at timestamptz NOT NULL)`);
  await pool.query(`TRUNCATE ${SCRATCH}`);
  const app = Fastify({ logger: false });
  app.post('/verify', async (request, reply) => {
    const body = request.body as { to: string };
    const id = `ver_${randomUUID()}`;
    const now = new Date();
    await pool.query(
      `INSERT INTO ${SCRATCH} (id, team_id, to_address, status, code_hash, attempts_remaining, expires_at, created_at, updated_at)
       VALUES ($1, 1, $2, 'pending', $3, 5, $4, $4, $4)`,
      [id, body.to, Buffer.alloc(32), now],
    );
    return reply.code(201).send({ id, status: 'pending' });
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  return { port: (app.server.address() as { port: number }).port };
}

async function serveHerald(): Promise<ServerInfo> {
  const { deps, app, team, key, now } = await benchHerald('bench-verify', 'pro', 1_000_000_000);
  // The domain is made through the API (its own DKIM key), then marked verified in the database.
  const created = await app.inject({
    method: 'POST',
    url: '/api/v1/domains',
    headers: { authorization: `Bearer ${key}` },
    payload: { name: `verify-${team.id}.bench.example.test`, region: 'us-east-1' },
  });
  if (created.statusCode !== 200)
    throw new Error(`creating the domain answered ${created.statusCode}: ${created.body}`);
  await deps.db
    .updateTable('domains')
    .set({ status: 'SUCCESS', verified_at: now, is_verifying: false })
    .where('id', '=', (created.json() as { id: number }).id)
    .execute();
  await app.listen({ port: 0, host: '127.0.0.1' });
  return { port: (app.server.address() as { port: number }).port, key, teamId: team.id };
}

/** Pending codes with known values, written straight to the table (the parent knows the secret). */
async function seedCodes(admin: pg.Client, teamId: number): Promise<{ id: string; code: string }[]> {
  const secrets = new Secrets(BENCH_SECRET);
  const run = randomUUID().slice(0, 8);
  const codes = Array.from({ length: SEEDED }, (_, i) => ({
    id: `ver_bench_${run}_${i}`,
    code: String(100_000 + ((i * 7919) % 900_000)),
  }));
  const now = new Date();
  const expires = new Date(now.getTime() + 3_600_000);
  for (let at = 0; at < codes.length; at += 5_000) {
    const slice = codes.slice(at, at + 5_000);
    await admin.query(
      `INSERT INTO verifications (id, team_id, channel, to_address, status, code_hash, attempts_remaining,
         expires_at, risk_score, risk_level, risk_reasons, created_at, updated_at)
       SELECT id, $1, 'email', 'seeded@example.com', 'pending', hash, 5, $2, 0, 'LOW', '[]', $3, $3
       FROM unnest($4::text[], $5::bytea[]) AS s(id, hash)`,
      [teamId, expires, now, slice.map((c) => c.id), slice.map((c) => secrets.hmac('code', `${c.id}:${c.code}`))],
    );
  }
  return codes;
}

let counter = 0;
const RUN = randomUUID().slice(0, 8);

function sendRequests(path: string, key: string | null): autocannon.Request[] {
  return [
    {
      method: 'POST',
      path,
      setupRequest: (request) => {
        counter += 1;
        const headers = { ...request.headers };
        if (key !== null) headers.authorization = `Bearer ${key}`;
        const ip = `10.${(counter >> 16) & 255}.${(counter >> 8) & 255}.${counter & 255}`;
        return { ...request, headers, body: JSON.stringify({ to: `u${counter}.${RUN}@example.com`, clientIp: ip }) };
      },
    },
  ];
}

function checkRequests(path: string, key: string, codes: { id: string; code: string }[]): autocannon.Request[] {
  return [
    {
      method: 'POST',
      path,
      setupRequest: (request) => {
        counter += 1;
        const { id, code } = codes[counter % codes.length]!;
        return {
          ...request,
          headers: { ...request.headers, authorization: `Bearer ${key}` },
          body: JSON.stringify({ id, code }),
        };
      },
    },
  ];
}

function load(child: ChildProcess, url: string, requests: () => autocannon.Request[]): Promise<Figures> {
  const options = { url, headers: { 'content-type': 'application/json' }, connections: CONNECTIONS };
  return loadFigures(child, options, DURATION_S, requests);
}

/** Clears the team's day of sends; sends still finishing after a round may deadlock it once: retried. */
async function clearUsage(admin: pg.Client, teamId: number): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await admin.query('DELETE FROM team_daily_usage WHERE team_id = $1', [teamId]);
      return;
    } catch (error) {
      if ((error as { code?: string }).code !== '40P01' || attempt === 5) throw error;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
}

/**
 * Starts the send tables in the state of a deployment that has been running: earlier runs' deleted
 * rows vacuumed away, then one unmeasured round of sends, then fresh statistics. Without the round,
 * each connection would plan its foreign-key checks against emails it found empty (sequential scans
 * kept for the whole run); without the VACUUM, the figure would depend on when autovacuum last ran.
 */
async function settleTables(admin: pg.Client, sendRound: () => Promise<Figures>): Promise<void> {
  const tables = 'verifications, emails, email_recipients, email_events, team_daily_usage';
  await admin.query(`VACUUM ${tables}`);
  await sendRound();
  await admin.query(`ANALYZE ${tables}`);
}

const startServer = (kind: 'bare' | 'herald') => startPinnedChild<ServerInfo>(import.meta.filename, ['serve', kind]);

interface Workload {
  name: string;
  bare: Figures;
  herald: Figures;
}

async function measure(admin: pg.Client): Promise<{ workloads: Workload[]; teamId: number; checked: number }> {
  const bare = await startServer('bare');
  const herald = await startServer('herald');
  const key = herald.info.key!;
  const teamId = herald.info.teamId!;
  const bareUrl = `http://127.0.0.1:${bare.info.port}`;
  const heraldUrl = `http://127.0.0.1:${herald.info.port}`;
  try {
    const codes = await seedCodes(admin, teamId);
    await settleTables(admin, () => load(herald.child, heraldUrl, () => sendRequests('/api/v1/verify/send', key)));
    const workloads: Workload[] = [];
    const plans: [string, () => autocannon.Request[]][] = [
      ['send (email)', () => sendRequests('/api/v1/verify/send', key)],
      ['check', () => checkRequests('/api/v1/verify/check', key, codes)],
    ];
    for (const [name, requests] of plans) {
      const rounds: { bare: Figures[]; herald: Figures[] } = { bare: [], herald: [] };
      for (let round = 0; round < ROUNDS; round++) {
        await clearUsage(admin, teamId);
        rounds.bare.push(await load(bare.child, bareUrl, () => sendRequests('/verify', null)));
        rounds.herald.push(await load(herald.child, heraldUrl, requests));
      }
      workloads.push({ name, bare: medianFigures(rounds.bare), herald: medianFigures(rounds.herald) });
    }
    const { rows } = await admin.query<{ n: string }>(
      `SELECT count(*) AS n FROM verifications WHERE team_id = $1 AND status = 'verified'`,
      [teamId],
    );
    return { workloads, teamId, checked: Number(rows[0]!.n) };
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
  let measured: Awaited<ReturnType<typeof measure>>;
  try {
    measured = await measure(admin);
    // The emails are QUEUED with nobody to deliver them: remove the bench team and what it owns.
    await removeTeams(admin, 'id = $1', [measured.teamId]);
    await admin.query(`DROP TABLE IF EXISTS ${SCRATCH}`);
  } finally {
    await admin.end();
  }
  const lines = measured.workloads.flatMap((w) => [
    `| ${w.name}: bare Fastify route, one \`INSERT\` through \`pg\` (baseline) | ${loadCells(w.bare)} |`,
    `| ${w.name}: POST /api/v1/verify/${w.name.startsWith('send') ? 'send' : 'check'} | ${loadCells(w.herald)} |`,
  ]);
  const [send, check] = measured.workloads as [Workload, Workload];
  const ratio = (w: Workload) => w.herald.rps / w.bare.rps;
  const p99ok = (w: Workload) => w.herald.p99 <= 2 * w.bare.p99;
  const body = [
    '## One-time codes: send and check (verify)',
    '',
    `\`npm exec -- node bench/verify.ts\`: POST /api/v1/verify/send, channel email (built-in message, the \`log\` transport, no worker runs), a fresh recipient and client IP per request, risk scoring on (the team's conversion signal fires during the run: nobody checks the sent codes); POST /api/v1/verify/check on ${SEEDED.toLocaleString('en-US')} codes seeded with known values, each checked with the right code (the first check verifies it, a later lap answers already_used). Team on the pro plan with a very large API rate limit, its \`team_daily_usage\` cleared before each round; before the rounds, the send tables vacuumed (earlier runs' deleted rows), one unmeasured round of sends and an ANALYZE (a running deployment's statistics); the domain created through the API and marked verified in the database. Baseline for both: a bare Fastify route doing one \`INSERT\` of a similar row through \`pg\`. ${CONNECTIONS} connections, median of ${ROUNDS} alternating rounds of ${DURATION_S} s (each after a 2 s warm-up), autocannon pinned to core 0, server pinned to core 1 (taskset), pool of ${POOL_SIZE} connections each; PostgreSQL on loopback. ${machineLine()}.`,
    '',
    '| target | throughput | latency | server CPU per request | non-2xx + errors |',
    '|---|---|---|---|---|',
    ...lines,
    '',
    `Send: **${(ratio(send) * 100).toFixed(0)}%** of the bare route (target: at least 40%, ${verdict(ratio(send) >= 0.4)}); p99 ${send.herald.p99} ms against ${send.bare.p99} ms (target: at most twice, ${verdict(p99ok(send))}). ` +
      `Check: **${(ratio(check) * 100).toFixed(0)}%** (target: at least 50%, ${verdict(ratio(check) >= 0.5)}); p99 ${check.herald.p99} ms against ${check.bare.p99} ms (${verdict(p99ok(check))}). ${measured.checked.toLocaleString('en-US')} seeded codes verified.`,
    '',
    NOTE,
  ].join('\n');
  console.log(body);
  writeSection('verify', body);
}
