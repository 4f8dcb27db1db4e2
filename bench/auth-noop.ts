// Authenticated no-op (GET /api/v1/whoami: key lookup, access policy, rate limit) on PostgreSQL,
// beside a bare Fastify route, measured in the same run with the same load generator.
// Run: npm exec -- node bench/auth-noop.ts   (BENCH_DATABASE_URL to choose the server database)
import { fork, type ChildProcess } from 'node:child_process';
import autocannon from 'autocannon';
import Fastify from 'fastify';
import pg from 'pg';
import pino from 'pino';
import { machineLine, writeSection } from './results.ts';

const DURATION_S = Number(process.env.BENCH_DURATION ?? 5);
const CONNECTIONS = 32;
const BASE_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/herald_bench';

async function ensureDatabase(url: string): Promise<void> {
  const target = new URL(url);
  const name = target.pathname.slice(1);
  target.pathname = '/postgres';
  const client = new pg.Client({ connectionString: target.toString() });
  await client.connect();
  const exists = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
  if (exists.rowCount === 0) await client.query(`CREATE DATABASE ${pg.escapeIdentifier(name)}`);
  await client.end();
}

async function serveBare(): Promise<{ port: number }> {
  const app = Fastify({ logger: false });
  app.get('/noop', async () => ({ ok: true }));
  await app.listen({ port: 0, host: '127.0.0.1' });
  return { port: (app.server.address() as { port: number }).port };
}

async function serveHerald(): Promise<{ port: number; key: string }> {
  const { buildApp } = await import('../src/app.ts');
  const { loadConfig } = await import('../src/config.ts');
  const { buildDeps } = await import('../src/deps.ts');
  const { migrate } = await import('../src/db/migrate.ts');
  const { createTeam, addMember, updateTeam } = await import('../src/platform/teams.ts');
  const { createApiKey } = await import('../src/platform/auth/api-keys.ts');
  const config = { ...loadConfig({}), databaseUrl: BASE_URL, secret: 'bench-secret-0123456789-0123456789-abc', adminToken: null };
  const deps = await buildDeps(config, { logger: pino({ level: 'silent' }) });
  await migrate(deps.database);
  const now = new Date();
  const team = await createTeam(deps.db, { name: 'bench' }, now);
  await updateTeam(deps.db, team.id, { apiRateLimit: 1_000_000 }, now);
  const owner = await addMember(deps.db, team.id, { email: `bench-${team.id}@example.test`, role: 'OWNER' }, now);
  const { key } = await createApiKey(deps.db, deps.secrets, team.id, { kind: 'full', memberId: owner.id });
  const app = await buildApp(deps);
  await app.listen({ port: 0, host: '127.0.0.1' });
  return { port: (app.server.address() as { port: number }).port, key };
}

interface Figures {
  rps: number;
  p99: number;
  non2xx: number;
}

async function load(url: string, headers: Record<string, string>): Promise<Figures> {
  await autocannon({ url, headers, connections: CONNECTIONS, duration: 2 }); // warm-up: caches, JIT
  const result = await autocannon({ url, headers, connections: CONNECTIONS, duration: DURATION_S });
  return { rps: result.requests.average, p99: result.latency.p99, non2xx: result.non2xx };
}

function startServer(kind: 'bare' | 'herald'): Promise<{ child: ChildProcess; info: { port: number; key?: string } }> {
  const child = fork(import.meta.filename, ['serve', kind], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  return new Promise((resolve, reject) => {
    child.once('message', (info) => resolve({ child, info: info as { port: number; key?: string } }));
    child.once('exit', (code) => reject(new Error(`${kind} server exited with ${code}`)));
  });
}

const ROUNDS = 3;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/** Both servers run side by side and are loaded in alternating rounds, so machine noise hits both. */
async function measureBoth(): Promise<{ bare: Figures; herald: Figures }> {
  const bare = await startServer('bare');
  const herald = await startServer('herald');
  try {
    const rounds: { bare: Figures[]; herald: Figures[] } = { bare: [], herald: [] };
    for (let round = 0; round < ROUNDS; round++) {
      rounds.bare.push(await load(`http://127.0.0.1:${bare.info.port}/noop`, {}));
      rounds.herald.push(await load(`http://127.0.0.1:${herald.info.port}/api/v1/whoami`, { authorization: `Bearer ${herald.info.key}` }));
    }
    const pick = (list: Figures[]): Figures => ({
      rps: median(list.map((f) => f.rps)),
      p99: median(list.map((f) => f.p99)),
      non2xx: list.reduce((sum, f) => sum + f.non2xx, 0),
    });
    return { bare: pick(rounds.bare), herald: pick(rounds.herald) };
  } finally {
    bare.child.kill('SIGKILL');
    herald.child.kill('SIGKILL');
  }
}

if (process.argv[2] === 'serve') {
  const info = process.argv[3] === 'bare' ? await serveBare() : await serveHerald();
  process.send!(info);
} else {
  await ensureDatabase(BASE_URL);
  const { bare, herald } = await measureBoth();
  const ratio = herald.rps / bare.rps;
  const fmt = (f: Figures) => `${Math.round(f.rps).toLocaleString('en-US')} req/s | p99 ${f.p99} ms | non-2xx ${f.non2xx}`;
  const body = [
    '## Authenticated no-op endpoint (platform)',
    '',
    `\`npm exec -- node bench/auth-noop.ts\`: ${CONNECTIONS} connections, median of ${ROUNDS} alternating rounds of ${DURATION_S} s (each after a 2 s warm-up), autocannon in the parent process, server in a child process; PostgreSQL 15 on loopback. ${machineLine()}.`,
    '',
    '| target | throughput | latency | errors |',
    '|---|---|---|---|',
    `| bare Fastify route (baseline) | ${fmt(bare).split(' | ').join(' | ')} |`,
    `| GET /api/v1/whoami (key lookup, access policy, rate limit) | ${fmt(herald).split(' | ').join(' | ')} |`,
    '',
    `Ratio: **${(ratio * 100).toFixed(0)}%** of the bare route's throughput (target: at least 60%).`,
  ].join('\n');
  console.log(body);
  writeSection('auth-noop', body);
}
