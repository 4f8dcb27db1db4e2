// POST /v1/emails under load, as bench/email-send.ts measures it: a listening Herald in a child
// pinned to core 1, autocannon in the parent on core 0 (50 connections, one recipient, 2 KB of
// HTML, a fresh Idempotency-Key on every other request). Also a round with a retention run started
// a third of the way in, for the send p99 while it runs.
import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import autocannon from 'autocannon';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../src/db/schema.ts';
import { announceToParent, type Figures, loadFigures, medianFigures, startPinnedChild } from '../measure.ts';
import { HTML } from './generate.ts';
import { scaleDeps } from './setup.ts';

export const DURATION_S = Number(process.env.BENCH_DURATION ?? 5);
export const CONNECTIONS = 50;
export const ROUNDS = 3;
const RECIPIENT = 'reader@example.test';
const RUN = randomUUID().slice(0, 8);
let keyCounter = 0;

/** In the child: the app on the scale database, listening; the parent brings the key. */
export async function serveMain(): Promise<void> {
  const { buildApp } = await import('../../src/app.ts');
  const { deps } = await scaleDeps();
  const app = await buildApp(deps);
  await app.listen({ port: 0, host: '127.0.0.1' });
  announceToParent({ port: (app.server.address() as { port: number }).port });
}

export interface SendServer {
  child: ChildProcess;
  options: autocannon.Options;
  requests: () => autocannon.Request[];
}

export async function startSendServer(benchFile: string, authorization: string, from: string): Promise<SendServer> {
  const { child, info } = await startPinnedChild<{ port: number }>(benchFile, ['serve']);
  const body = JSON.stringify({ from, to: RECIPIENT, subject: 'Your weekly summary', html: HTML });
  const requests = (): autocannon.Request[] => [
    {
      method: 'POST',
      path: '/api/v1/emails',
      body,
      setupRequest: (request) => {
        keyCounter += 1;
        const headers = { ...request.headers };
        if (keyCounter % 2 === 0) headers['idempotency-key'] = `bench-scale-${RUN}-${keyCounter}`;
        else delete headers['idempotency-key'];
        return { ...request, headers };
      },
    },
  ];
  const options = {
    url: `http://127.0.0.1:${info.port}`,
    headers: { 'content-type': 'application/json', authorization },
    connections: CONNECTIONS,
  };
  return { child, options, requests };
}

/**
 * The pro plan's daily limit could refuse a long run: the current month's usage counters (only
 * measurements write there; the history is in earlier months) are cleared before each round.
 */
async function clearMonthUsage(db: Kysely<Database>, teamId: number) {
  await sql`DELETE FROM team_daily_usage WHERE team_id = ${teamId}::int
    AND day >= date_trunc('month', now() AT TIME ZONE 'UTC')::date`.execute(db);
}

/**
 * The emails the rounds stored (QUEUED, nobody delivers them) are removed with their events and
 * recipients, so the team is the size it was and the delivery rounds find only their backlog.
 */
async function removeSentSince(db: Kysely<Database>, teamId: number, since: Date) {
  // autocannon stops at its duration without waiting for the requests in flight: they commit after.
  await new Promise((resolve) => setTimeout(resolve, 2000));
  await sql`DELETE FROM emails WHERE team_id = ${teamId}::int
    AND id >= herald_id_floor('em_', ${since}::timestamptz)`.execute(db);
}

const roundLine = (label: string, f: Figures) =>
  `  ${label}: ${Math.round(f.rps)} req/s, p99 ${f.p99} ms, ${f.non2xx} non-2xx or errors`;

/**
 * The median of ROUNDS rounds (each after a 2 s warm-up), after one unmeasured round: the first
 * size is measured first in the run, and should not pay alone for cold caches.
 */
export async function measureSend(db: Kysely<Database>, teamId: number, server: SendServer): Promise<Figures> {
  const since = new Date(Date.now() - 1000);
  const rounds: Figures[] = [];
  try {
    await clearMonthUsage(db, teamId);
    console.log(roundLine('unmeasured', await loadFigures(server.child, server.options, DURATION_S, server.requests)));
    for (let round = 0; round < ROUNDS; round++) {
      await clearMonthUsage(db, teamId);
      rounds.push(await loadFigures(server.child, server.options, DURATION_S, server.requests));
      console.log(roundLine(`round ${round + 1}`, rounds.at(-1)!));
    }
  } finally {
    await removeSentSince(db, teamId, since);
  }
  return medianFigures(rounds);
}

export interface RetentionRound {
  without: Figures;
  during: Figures;
  /** The run that completed under the sends (ms), null when every attempt deadlocked; failed ones in `failures`. */
  retentionMs: number | null;
  totalMs: number;
  /** Only when every attempt under the sends failed: the same run with no sends (ms). */
  quietMs: number | null;
  failures: { ms: number; error: string }[];
  dropped: string[];
  held: number;
}

type RetentionRun = () => Promise<{ dropped: string[]; held: unknown[] }>;

/**
 * The run, again after a deadlock (40P01), at most 3 attempts, each timed. The drop locks the
 * family's tables root first, as sends do, so none is expected; a month the sends held past the
 * drop's lock wait comes back in the report's `busy`, and the run answers that it was not dropped.
 */
async function retentionAttempts(run: RetentionRun) {
  const failures: { ms: number; error: string }[] = [];
  const started = performance.now();
  for (let attempt = 1; ; attempt++) {
    const attemptStarted = performance.now();
    try {
      const report = await run();
      const done = performance.now();
      return { report, failures, retentionMs: done - attemptStarted, totalMs: done - started };
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (code !== '40P01') throw error;
      failures.push({ ms: performance.now() - attemptStarted, error: `${code} ${(error as Error).message}` });
      console.log(`  retention attempt ${attempt}: ${(error as Error).message}`);
      if (attempt === 3) return { report: null, failures, retentionMs: null, totalMs: performance.now() - started };
    }
  }
}

/**
 * ROUNDS rounds without retention, then one where `run` starts a third of the way into the
 * measured DURATION_S (after the same warm-up): its p99 against the median of the others.
 */
export async function measureSendDuringRetention(
  db: Kysely<Database>,
  teamId: number,
  server: SendServer,
  run: RetentionRun,
): Promise<RetentionRound> {
  const since = new Date(Date.now() - 1000);
  try {
    const without: Figures[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      await clearMonthUsage(db, teamId);
      without.push(await loadFigures(server.child, server.options, DURATION_S, server.requests));
      console.log(roundLine(`without retention ${round + 1}`, without.at(-1)!));
    }
    await clearMonthUsage(db, teamId);
    await autocannon({ ...server.options, requests: server.requests(), duration: 2 });
    const load = autocannon({ ...server.options, requests: server.requests(), duration: DURATION_S });
    await new Promise((resolve) => setTimeout(resolve, (DURATION_S * 1000) / 3));
    const attempts = await retentionAttempts(run);
    const { failures, retentionMs, totalMs } = attempts;
    const result = await load;
    // Every attempt deadlocked with the sends: the same run once they have stopped, for its time.
    let report = attempts.report;
    let quietMs: number | null = null;
    if (report === null) {
      // The requests autocannon left in flight commit first.
      await new Promise((resolve) => setTimeout(resolve, 2000));
      const quiet = await retentionAttempts(run);
      if (quiet.report === null) throw new Error(`retention deadlocked with no sends: ${failures.at(-1)?.error}`);
      report = quiet.report;
      quietMs = quiet.retentionMs;
      console.log(`  retention with no sends: ${quietMs!.toFixed(0)} ms`);
    }
    const during: Figures = {
      rps: result.requests.average,
      p99: result.latency.p99,
      non2xx: result.non2xx + result.errors,
      cpuMicros: NaN,
    };
    console.log(roundLine('during retention', during));
    return {
      without: medianFigures(without),
      during,
      retentionMs,
      totalMs,
      quietMs,
      failures,
      dropped: report.dropped,
      held: report.held.length,
    };
  } finally {
    await removeSentSince(db, teamId, since);
  }
}
