// Sending one SMS (POST /api/v1/sms: key lookup, access policy, rate limit, number parsing, sender ID
// and risk reads, then one transaction counting the month's parts, charging the wallet (its row
// locked) and storing the message) on PostgreSQL, beside a bare Fastify route doing one INSERT of a
// similar row through `pg`, measured in the same run with the same load generator. Two workloads:
// one team (every request takes the same wallet row lock) and ten teams (keys taken in turn).
// Afterwards every team's ledger is checked: one charge per stored message, and the charges add up
// to what the balance moved. The table starts crowded with another team's messages to the same
// prefixes, as on a server shared with a busy team (the risk counts must stay on their indexes).
// Run: npm exec -- node bench/sms-send.ts   (BENCH_DATABASE_URL to choose the server database;
// BENCH_CROWD, default 100000: the other team's messages)
import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import type autocannon from 'autocannon';
import Fastify from 'fastify';
import { sql, type Kysely } from 'kysely';
import pg from 'pg';
import type { Database } from '../src/db/schema.ts';
import { BENCH_DATABASE_URL, ensureDatabase } from './database.ts';
import { removeTeams } from './remove-teams.ts';
import { benchHerald } from './herald-app.ts';
import { loadCells, machineLine, verdict, writeSection } from './results.ts';
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
const SCRATCH = 'bench_sms_rows';
const TEAMS = 10;
/** Far more than the run can spend. */
const TOP_UP_MINOR = 1_000_000_000_000;
const TEXT = 'Your Herald verification code is 482913. It expires in 10 minutes.';
const CROWD = Number(process.env.BENCH_CROWD ?? 100_000);
const AREAS = [201, 212, 213, 305, 312, 404, 415, 512, 617, 646, 702, 718, 818, 917];

/** US numbers spread over area codes and exchanges (valid under libphonenumber's max metadata). */
function numberPool(size: number): string[] {
  const numbers: string[] = [];
  for (let i = 0; numbers.length < size; i++) {
    const area = AREAS[i % AREAS.length]!;
    const exchange = 200 + ((i * 37) % 700);
    const line = String((i * 7919) % 10000).padStart(4, '0');
    numbers.push(`+1${area}${exchange}${line}`);
  }
  return numbers;
}

interface ServerInfo {
  port: number;
  keys?: string[];
  teamIds?: number[];
  crowdTeamId?: number;
}

async function serveBare(): Promise<ServerInfo> {
  const pool = new pg.Pool({ connectionString: BASE_URL, max: POOL_SIZE });
  await pool.query(`CREATE TABLE IF NOT EXISTS ${SCRATCH} (
    id text PRIMARY KEY, team_id integer NOT NULL, to_number text NOT NULL, body text NOT NULL,
    segments integer NOT NULL, charge_minor bigint NOT NULL, status text NOT NULL,
    created_at timestamptz NOT NULL, updated_at timestamptz NOT NULL)`);
  await pool.query(`TRUNCATE ${SCRATCH}`);
  const app = Fastify({ logger: false });
  app.post('/sms', async (request, reply) => {
    const body = request.body as { to: string; text: string };
    const id = `sms_${randomUUID()}`;
    const now = new Date();
    await pool.query(
      `INSERT INTO ${SCRATCH} (id, team_id, to_number, body, segments, charge_minor, status, created_at, updated_at)
       VALUES ($1, 1, $2, $3, 1, 1, 'queued', $4, $4)`,
      [id, body.to, body.text, now],
    );
    return reply.code(201).send({ id, status: 'queued' });
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  return { port: (app.server.address() as { port: number }).port };
}

async function serveHerald(): Promise<ServerInfo> {
  const { deps, app, team, key, now } = await benchHerald('bench-sms-send', 'free', 1_000_000_000);
  const { createTeam, addMember, updateTeam, createApiKey } = await import('../src/accounts/index.ts');
  const { topUp } = await import('../src/wallet/index.ts');
  const teams = [{ id: team.id, key }];
  for (let i = 1; i < TEAMS; i++) {
    const other = await createTeam(deps.db, { name: `bench-sms-send-${i}` }, now);
    await updateTeam(deps.db, other.id, { apiRateLimit: 1_000_000_000 }, now);
    const owner = await addMember(deps.db, other.id, { email: `bench-${other.id}@example.test`, role: 'OWNER' }, now);
    const made = await createApiKey(deps.db, deps.secrets, other.id, { kind: 'full', memberId: owner.id });
    teams.push({ id: other.id, key: made.key });
  }
  for (const { id } of teams) {
    await updateTeam(deps.db, id, { smsEnabled: true }, now);
    await deps.db
      .transaction()
      .execute((tx) =>
        topUp(tx, id, { amountMinor: BigInt(TOP_UP_MINOR), reference: `bench-${id}`, description: null, at: now }),
      );
  }
  const crowd = await createTeam(deps.db, { name: 'bench-sms-send-crowd' }, now);
  await crowdTable(deps.db, crowd.id, now);
  await app.listen({ port: 0, host: '127.0.0.1' });
  return {
    port: (app.server.address() as { port: number }).port,
    keys: teams.map((t) => t.key),
    teamIds: teams.map((t) => t.id),
    crowdTeamId: crowd.id,
  };
}

/** Another team's CROWD sent messages over the same numbers as the run's, made in the last minutes. */
async function crowdTable(db: Kysely<Database>, teamId: number, now: Date): Promise<void> {
  const number = sql`'+1' || (${AREAS}::int[])[1 + i % ${AREAS.length}] || (200 + (i * 37) % 700)`;
  await sql`
    INSERT INTO sms_messages (id, team_id, to_number, to_prefix, country, sender_id, body, encoding, segments,
      currency, charge_minor, status, created_at, updated_at)
    SELECT 'sms_crowd_' || i, ${teamId}, ${number} || lpad(((i * 7919) % 10000)::text, 4, '0'), ${number}, 'US',
      'Herald', ${TEXT}, 'GSM-7', 1, 'USD', 1, 'sent', ${now}, ${now}
    FROM generate_series(1, ${CROWD}) AS i`.execute(db);
  await sql`ANALYZE sms_messages`.execute(db);
}

const NUMBERS = numberPool(5000);
let counter = 0;

function smsRequests(path: string, keys: string[]): autocannon.Request[] {
  return [
    {
      method: 'POST',
      path,
      setupRequest: (request) => {
        counter += 1;
        const headers = { ...request.headers };
        if (keys.length > 0) headers.authorization = `Bearer ${keys[counter % keys.length]}`;
        return { ...request, headers, body: JSON.stringify({ to: NUMBERS[counter % NUMBERS.length], text: TEXT }) };
      },
    },
  ];
}

async function load(child: ChildProcess, url: string, path: string, keys: string[]): Promise<Figures> {
  const options = { url, headers: { 'content-type': 'application/json' }, connections: CONNECTIONS };
  return loadFigures(child, options, DURATION_S, () => smsRequests(path, keys));
}

const startServer = (kind: 'bare' | 'herald') => startPinnedChild<ServerInfo>(import.meta.filename, ['serve', kind]);

interface Workload {
  name: string;
  bare: Figures;
  herald: Figures;
}

async function measure(): Promise<{ workloads: Workload[]; teamIds: number[]; crowdTeamId: number }> {
  const bare = await startServer('bare');
  const herald = await startServer('herald');
  const keys = herald.info.keys!;
  try {
    const workloads: Workload[] = [];
    for (const [name, used] of [
      ['one team', keys.slice(0, 1)],
      ['ten teams', keys],
    ] as const) {
      const rounds: { bare: Figures[]; herald: Figures[] } = { bare: [], herald: [] };
      for (let round = 0; round < ROUNDS; round++) {
        rounds.bare.push(await load(bare.child, `http://127.0.0.1:${bare.info.port}`, '/sms', []));
        rounds.herald.push(await load(herald.child, `http://127.0.0.1:${herald.info.port}`, '/api/v1/sms', [...used]));
      }
      workloads.push({ name, bare: medianFigures(rounds.bare), herald: medianFigures(rounds.herald) });
    }
    return { workloads, teamIds: herald.info.teamIds!, crowdTeamId: herald.info.crowdTeamId! };
  } finally {
    bare.child.kill('SIGTERM');
    herald.child.kill('SIGTERM');
  }
}

/** Per team: messages stored, charge rows, the charges' sum, and what the balance moved. */
async function checkLedgers(admin: pg.Client, teamIds: number[]) {
  const { rows } = await admin.query<{ messages: string; charges: string; charged: string; moved: string }>(
    `SELECT
       (SELECT count(*) FROM sms_messages m WHERE m.team_id = ANY($1)) AS messages,
       (SELECT count(*) FROM wallet_transactions t WHERE t.team_id = ANY($1) AND t.type = 'SMS_CHARGE') AS charges,
       (SELECT coalesce(sum(m.charge_minor), 0) FROM sms_messages m WHERE m.team_id = ANY($1)) AS charged,
       (SELECT coalesce(sum($2::bigint - w.balance), 0) FROM wallets w WHERE w.team_id = ANY($1)) AS moved`,
    [teamIds, TOP_UP_MINOR],
  );
  const row = rows[0]!;
  return {
    messages: Number(row.messages),
    charges: Number(row.charges),
    charged: BigInt(row.charged),
    moved: BigInt(row.moved),
  };
}

if (process.argv[2] === 'serve') {
  announceToParent(process.argv[3] === 'bare' ? await serveBare() : await serveHerald());
} else {
  pinToCoreZero();
  await ensureDatabase(BASE_URL);
  const admin = new pg.Client({ connectionString: BASE_URL });
  await admin.connect();
  let measured: Awaited<ReturnType<typeof measure>>;
  let ledger: Awaited<ReturnType<typeof checkLedgers>>;
  try {
    measured = await measure();
    ledger = await checkLedgers(admin, measured.teamIds);
    // The messages are queued with nobody to deliver them: remove the bench teams.
    await removeTeams(admin, 'id = ANY($1::int[])', [[...measured.teamIds, measured.crowdTeamId]]);
    await admin.query(`DROP TABLE IF EXISTS ${SCRATCH}`);
  } finally {
    await admin.end();
  }
  const exact = ledger.messages === ledger.charges && ledger.charged === ledger.moved;
  const lines = measured.workloads.flatMap((w) => [
    `| ${w.name}: bare Fastify route, one \`INSERT\` through \`pg\` (baseline) | ${loadCells(w.bare)} |`,
    `| ${w.name}: POST /api/v1/sms | ${loadCells(w.herald)} |`,
  ]);
  const [one, ten] = measured.workloads as [Workload, Workload];
  const ratio = (w: Workload) => w.herald.rps / w.bare.rps;
  const p99ok = (w: Workload) => w.herald.p99 <= 2 * w.bare.p99;
  const body = [
    '## Send one SMS (sms)',
    '',
    `\`npm exec -- node bench/sms-send.ts\`: POST /api/v1/sms, ${TEXT.length} GSM-7 characters (one segment) to US numbers spread over 14 area codes, the \`log\` provider (the benchmark measures the API; no worker runs); teams on the free plan with SMS enabled, a very large API rate limit and a wallet topped up far beyond the run. The table holds another team's ${CROWD.toLocaleString('en-US')} messages to the same prefixes, sent in the last minutes. Workloads: one team (every send locks the same wallet row) and ${TEAMS} teams (keys in turn). ${CONNECTIONS} connections, median of ${ROUNDS} alternating rounds of ${DURATION_S} s (each after a 2 s warm-up), autocannon pinned to core 0, server pinned to core 1 (taskset), pool of ${POOL_SIZE} connections each; PostgreSQL on loopback. ${machineLine()}.`,
    '',
    '| target | throughput | latency | server CPU per request | non-2xx + errors |',
    '|---|---|---|---|---|',
    ...lines,
    '',
    `One team: **${(ratio(one) * 100).toFixed(0)}%** of the bare route (target: at least 25%, ${verdict(ratio(one) >= 0.25)}); p99 ${one.herald.p99} ms against ${one.bare.p99} ms (target: at most twice, ${verdict(p99ok(one))}). ` +
      `Ten teams: **${(ratio(ten) * 100).toFixed(0)}%** (target: at least 50%, ${verdict(ratio(ten) >= 0.5)}); p99 ${ten.herald.p99} ms against ${ten.bare.p99} ms (${verdict(p99ok(ten))}).`,
    '',
    `Ledger check after both workloads: ${ledger.messages.toLocaleString('en-US')} messages stored, ${ledger.charges.toLocaleString('en-US')} SMS charge rows, charges ${ledger.charged} minor units, balances moved ${ledger.moved}: ${exact ? 'every accepted message charged exactly once' : '**MISMATCH**'}.`,
  ].join('\n');
  console.log(body);
  writeSection('sms-send', body);
  if (!exact) process.exit(1);
}
