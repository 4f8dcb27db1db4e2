// Authenticated no-op (GET /api/v1/whoami: key lookup, access policy, rate limit) on PostgreSQL,
// beside a bare Fastify route, measured in the same run with the same load generator.
// Run: npm exec -- node bench/auth-noop.ts   (BENCH_DATABASE_URL to choose the server database)
import type { ChildProcess } from 'node:child_process';
import Fastify from 'fastify';
import { BENCH_DATABASE_URL, ensureDatabase } from './database.ts';
import { benchHerald } from './herald-app.ts';
import { loadCells, machineLine, writeSection } from './results.ts';
import {
  announceToParent,
  type Figures,
  medianFigures,
  pinToCoreZero,
  loadFigures,
  startPinnedChild,
} from './measure.ts';

const DURATION_S = Number(process.env.BENCH_DURATION ?? 5);
const CONNECTIONS = 32;
const BASE_URL = BENCH_DATABASE_URL;

async function serveBare(): Promise<{ port: number }> {
  const app = Fastify({ logger: false });
  app.get('/noop', async () => ({ ok: true }));
  await app.listen({ port: 0, host: '127.0.0.1' });
  return { port: (app.server.address() as { port: number }).port };
}

async function serveHerald(): Promise<{ port: number; key: string }> {
  const { app, key } = await benchHerald('bench', 'free', 1_000_000);
  await app.listen({ port: 0, host: '127.0.0.1' });
  return { port: (app.server.address() as { port: number }).port, key };
}

async function load(child: ChildProcess, url: string, headers: Record<string, string>): Promise<Figures> {
  return loadFigures(child, { url, headers, connections: CONNECTIONS }, DURATION_S);
}

function startServer(kind: 'bare' | 'herald') {
  return startPinnedChild<{ port: number; key?: string }>(import.meta.filename, ['serve', kind]);
}

const ROUNDS = 3;

/** Both servers run side by side and are loaded in alternating rounds, so machine noise hits both. */
async function measureBoth(): Promise<{ bare: Figures; herald: Figures }> {
  const bare = await startServer('bare');
  const herald = await startServer('herald');
  try {
    const rounds: { bare: Figures[]; herald: Figures[] } = { bare: [], herald: [] };
    for (let round = 0; round < ROUNDS; round++) {
      rounds.bare.push(await load(bare.child, `http://127.0.0.1:${bare.info.port}/noop`, {}));
      rounds.herald.push(
        await load(herald.child, `http://127.0.0.1:${herald.info.port}/api/v1/whoami`, {
          authorization: `Bearer ${herald.info.key}`,
        }),
      );
    }
    return { bare: medianFigures(rounds.bare), herald: medianFigures(rounds.herald) };
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
  const { bare, herald } = await measureBoth();
  const ratio = herald.rps / bare.rps;
  const cpuRatio = bare.cpuMicros / herald.cpuMicros;
  const body = [
    '## Authenticated no-op endpoint (platform)',
    '',
    `\`npm exec -- node bench/auth-noop.ts\`: ${CONNECTIONS} connections, median of ${ROUNDS} alternating rounds of ${DURATION_S} s (each after a 2 s warm-up), autocannon pinned to core 0, server pinned to core 1 (taskset); PostgreSQL 15 on loopback. ${machineLine()}.`,
    '',
    '| target | throughput | latency | server CPU per request | non-2xx |',
    '|---|---|---|---|---|',
    `| bare Fastify route (baseline) | ${loadCells(bare, 1)} |`,
    `| GET /api/v1/whoami (key lookup, access policy, rate limit) | ${loadCells(herald, 1)} |`,
    '',
    `Throughput ratio: **${(ratio * 100).toFixed(0)}%** of the bare route (target: at least 60%). ` +
      `Server CPU ratio (bare µs / whoami µs, the throughput ratio a CPU-bound server would reach): **${(cpuRatio * 100).toFixed(0)}%**. ` +
      'PostgreSQL is not on the hot path once keys are warm.',
  ].join('\n');
  console.log(body);
  writeSection('auth-noop', body);
}
