// Bulk add of contacts (POST /api/v1/contactBooks/{id}/contacts/bulk, 1,000 new contacts per request:
// key lookup, access policy, rate limit, zod check of every entry, the book share-locked, the
// addresses looked up, one INSERT … ON CONFLICT DO UPDATE) on PostgreSQL, beside a bare Fastify route
// that takes the same JSON body and does one multi-row INSERT of those rows through `pg` into the
// `contacts` table of another book of the same team (same columns, constraints and indexes), measured
// in the same run with the same load generator.
// Run: npm exec -- node bench/contacts-bulk.ts   (BENCH_DATABASE_URL to choose the server database)
import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import autocannon from 'autocannon';
import Fastify from 'fastify';
import pg from 'pg';
import { BENCH_DATABASE_URL, ensureDatabase } from './database.ts';
import { benchHerald } from './herald-app.ts';
import { machineLine, writeSection } from './results.ts';
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
const CONNECTIONS = 4;
const ROUNDS = 3;
const PER_REQUEST = 1000;
const BASE_URL = BENCH_DATABASE_URL;
/** Pool size of both servers (Herald's default). */
const POOL_SIZE = 10;

interface HeraldInfo {
  port: number;
  key: string;
  teamId: number;
  bookId: string;
  /** The book the bare route inserts into: same team, no double opt-in. */
  bareBookId: string;
}

interface BulkEntry {
  email: string;
  firstName: string;
  lastName: string;
  properties: Record<string, string>;
}

const COLUMNS = [
  'id',
  'team_id',
  'contact_book_id',
  'email',
  'first_name',
  'last_name',
  'subscribed',
  'properties',
  'confirmed_at',
  'confirmation_due_at',
  'created_at',
  'updated_at',
];

/** One multi-row INSERT of the body's rows, the columns and state Herald stores for a new contact. */
async function serveBare(teamId: number, bookId: string): Promise<{ port: number }> {
  const pool = new pg.Pool({ connectionString: BASE_URL, max: POOL_SIZE });
  const app = Fastify({ logger: false, bodyLimit: 20 * 1024 * 1024 });
  app.post('/bulk', async (request) => {
    const entries = request.body as BulkEntry[];
    const now = new Date();
    const values: unknown[] = [];
    const tuples: string[] = [];
    for (const entry of entries) {
      const n = values.length;
      tuples.push(`(${COLUMNS.map((_, i) => `$${n + i + 1}`).join(', ')})`);
      values.push(
        `ct_${randomUUID()}`,
        teamId,
        bookId,
        entry.email.trim().toLowerCase(),
        entry.firstName,
        entry.lastName,
        true,
        JSON.stringify(entry.properties),
        now,
        null,
        now,
        now,
      );
    }
    const result = await pool.query(`INSERT INTO contacts (${COLUMNS.join(', ')}) VALUES ${tuples.join(', ')}`, values);
    return { message: `${result.rowCount} contacts added, 0 updated`, count: result.rowCount };
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  return { port: (app.server.address() as { port: number }).port };
}

async function serveHerald(): Promise<HeraldInfo> {
  const { app, team, key } = await benchHerald('bench-contacts-bulk', 'pro', 1_000_000_000);
  const book = async (name: string) => {
    const response = await app.inject({
      method: 'POST',
      url: '/api/v1/contactBooks',
      headers: { authorization: `Bearer ${key}` },
      payload: { name },
    });
    if (response.statusCode !== 200)
      throw new Error(`creating a book answered ${response.statusCode}: ${response.body}`);
    return (response.json() as { id: string }).id;
  };
  const bookId = await book('Bench bulk add');
  const bareBookId = await book('Bench bare insert');
  await app.listen({ port: 0, host: '127.0.0.1' });
  return { port: (app.server.address() as { port: number }).port, key, teamId: team.id, bookId, bareBookId };
}

const RUN = randomUUID().slice(0, 8);
let requestCounter = 0;

/** 1,000 new contacts: fresh addresses on every request, names, 3 to 5 properties. */
function bulkBody(): string {
  requestCounter += 1;
  const entries: BulkEntry[] = [];
  for (let i = 0; i < PER_REQUEST; i++) {
    const properties: Record<string, string> = {
      plan: i % 2 === 0 ? 'pro' : 'free',
      city: `City ${i % 37}`,
      source: 'bench-import',
    };
    if (i % 3 > 0) properties.company = `Company ${i % 101}`;
    if (i % 3 > 1) properties.score = String(i % 97);
    entries.push({
      email: `c${RUN}-${requestCounter}-${i}@bench.example.test`,
      firstName: `First${i}`,
      lastName: `Last${i % 211}`,
      properties,
    });
  }
  return JSON.stringify(entries);
}

function bulkRequests(path: string): autocannon.Request[] {
  return [{ method: 'POST', path, setupRequest: (request) => ({ ...request, body: bulkBody() }) }];
}

async function load(child: ChildProcess, url: string, path: string, headers: Record<string, string>): Promise<Figures> {
  const options = {
    url,
    headers: { 'content-type': 'application/json', ...headers },
    connections: CONNECTIONS,
    timeout: 30,
  };
  await autocannon({ ...options, requests: bulkRequests(path), duration: 2 }); // warm-up: caches, JIT
  const before = await serverCpu(child);
  const result = await autocannon({ ...options, requests: bulkRequests(path), duration: DURATION_S });
  const cpu = (await serverCpu(child)) - before;
  // requests.average is a mean of per-second counts; at tens of requests a second total / duration is steadier.
  const ok = result.requests.total - result.non2xx;
  return {
    rps: ok / result.duration,
    p99: result.latency.p99,
    non2xx: result.non2xx + result.errors,
    cpuMicros: cpu / result.requests.total,
  };
}

/** Both servers run side by side and are loaded in alternating rounds, so machine noise hits both. */
async function measureBoth(): Promise<{ bare: Figures; herald: Figures; teamId: number }> {
  const herald = await startPinnedChild<HeraldInfo>(import.meta.filename, ['serve', 'herald']);
  const { teamId, bookId, bareBookId, key } = herald.info;
  let bare: Awaited<ReturnType<typeof startPinnedChild<{ port: number }>>> | undefined;
  try {
    bare = await startPinnedChild<{ port: number }>(import.meta.filename, [
      'serve',
      'bare',
      String(teamId),
      bareBookId,
    ]);
    const rounds: { bare: Figures[]; herald: Figures[] } = { bare: [], herald: [] };
    for (let round = 0; round < ROUNDS; round++) {
      rounds.bare.push(await load(bare.child, `http://127.0.0.1:${bare.info.port}`, '/bulk', {}));
      rounds.herald.push(
        await load(
          herald.child,
          `http://127.0.0.1:${herald.info.port}`,
          `/api/v1/contactBooks/${bookId}/contacts/bulk`,
          { authorization: `Bearer ${key}` },
        ),
      );
    }
    return { bare: medianFigures(rounds.bare), herald: medianFigures(rounds.herald), teamId };
  } finally {
    bare?.child.kill('SIGKILL');
    herald.child.kill('SIGKILL');
  }
}

if (process.argv[2] === 'serve') {
  announceToParent(
    process.argv[3] === 'bare' ? await serveBare(Number(process.argv[4]), process.argv[5]!) : await serveHerald(),
  );
} else {
  pinToCoreZero();
  await ensureDatabase(BASE_URL);
  const measured = await measureBoth();
  // Remove the bench team: its books and their contacts go with it.
  const admin = new pg.Client({ connectionString: BASE_URL });
  await admin.connect();
  try {
    await removeTeams(admin, 'id = $1', [measured.teamId]);
  } finally {
    await admin.end();
  }
  const { bare, herald } = measured;
  const ratio = herald.rps / bare.rps;
  const fmt = (f: Figures) =>
    `${Math.round(f.rps * PER_REQUEST).toLocaleString('en-US')} contacts/s (${f.rps.toFixed(1)} req/s) | p99 ${f.p99} ms | ${(f.cpuMicros / 1000).toFixed(1)} ms | ${f.non2xx}`;
  const body = [
    '## Bulk add contacts (contacts-bulk)',
    '',
    `\`npm exec -- node bench/contacts-bulk.ts\`: POST /api/v1/contactBooks/{id}/contacts/bulk with ${PER_REQUEST.toLocaleString('en-US')} new contacts per request (fresh addresses on every request, first and last name, 3 to 5 properties; about ${Math.round(bulkBody().length / 1024)} KB of JSON), a book without double opt-in; team on the pro plan with a very large API rate limit. Baseline: a bare Fastify route taking the same body and doing one multi-row \`INSERT\` of the same 12 columns (one parameter per value) through \`pg\` into \`contacts\` of another book of the same team (same constraints and indexes). ${CONNECTIONS} connections, median of ${ROUNDS} alternating rounds of ${DURATION_S} s (each after a 2 s warm-up), autocannon (building each body) pinned to core 0, server pinned to core 1 (taskset), pool of ${POOL_SIZE} connections each; PostgreSQL on loopback, unpinned. ${machineLine()}.`,
    '',
    '| target | throughput | latency | server CPU per request | non-2xx + errors |',
    '|---|---|---|---|---|',
    `| bare Fastify route: one multi-row \`INSERT\` through \`pg\` (baseline) | ${fmt(bare)} |`,
    `| POST …/contacts/bulk | ${fmt(herald)} |`,
    '',
    `Throughput ratio: **${(ratio * 100).toFixed(0)}%** of the bare INSERT (target: at least 50%, ${ratio >= 0.5 ? 'met' : '**not met**'}).`,
  ].join('\n');
  console.log(body);
  writeSection('contacts-bulk', body);
}
