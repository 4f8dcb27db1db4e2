// Journeys, the two targets of issue 20, on PostgreSQL with the log mail transport:
//
// 1. Runner throughput: N runs due at once on an EMAIL step (then a WAIT of a day), timed until every
//    run has moved on (its email queued through queueEmails, the run at its WAIT, the journey's
//    counters updated, all in the batch's transaction), beside the email-delivery queue draining N
//    plain QUEUED emails (stored through queueEmails beforehand) to the log transport, same run.
//    Target: at least 50% of the baseline's rate.
// 2. Bulk add of 1,000 new contacts (POST .../contacts/bulk through the app) to a book with an ACTIVE
//    CONTACT_ADDED journey, beside the same bulk add to a book without one, alternating requests
//    (the enrolment queue then makes the runs, untimed, and every contact is checked enrolled).
//    Target: at least 70% of the baseline's rate.
//
// Run: npm exec -- node bench/journeys.ts   (BENCH_DATABASE_URL; BENCH_RUNS, default 100000, the
// issue's figure). Progress on stderr every 10 s; the load average is written beside the figures.
// The contacts and runs of (1) are inserted directly in SQL while no worker runs; a pro team sends at
// most 50,000 emails a day, so the runs and emails are spread over one team per 50,000.
//
// Its parts, imported once the process is pinned: bench/journeys/ (the teams, draining a queue, the
// runner round and its baseline).
import pino from 'pino';
import { BENCH_DATABASE_URL, ensureDatabase } from './database.ts';
import { BENCH_SECRET } from './herald-app.ts';
import type { BenchTeam } from './journeys/bench-team.ts';
import { median, pinToCoreZero } from './measure.ts';
import { removeTeams } from './remove-teams.ts';
import { machineLine, writeSection } from './results.ts';

const RUNS = Number(process.env.BENCH_RUNS ?? 100_000);
const PER_TEAM = 50_000;
const BULK = 1000;
const BULK_ROUNDS = Number(process.env.BENCH_BULK_ROUNDS ?? 10);
const NAME = 'bench-journeys';

pinToCoreZero();
await ensureDatabase(BENCH_DATABASE_URL);
const { sql } = await import('kysely');
const { buildApp } = await import('../src/app.ts');
const { loadConfig } = await import('../src/config.ts');
const { buildDeps } = await import('../src/build-deps.ts');
const { migrate } = await import('../src/db/migrate.ts');
const { QueueRunner } = await import('../src/queue/index.ts');
const { journeyEnrolmentsQueue } = await import('../src/journeys/index.ts');
const { benchTeam, call } = await import('./journeys/bench-team.ts');
const { count, drain, loadAverage } = await import('./journeys/drain.ts');
const { deliveryRound, runnerRound } = await import('./journeys/rounds.ts');

const config = {
  ...loadConfig({}),
  databaseUrl: BENCH_DATABASE_URL,
  secret: BENCH_SECRET,
  adminToken: null,
  mailTransport: { kind: 'log' as const },
};
const deps = await buildDeps(config, { logger: pino({ level: 'silent' }) });
await migrate(deps.database);
await removeTeams(deps.db, 'name LIKE $1', [`${NAME}%`]);
const stray = await sql<{
  n: string;
}>`SELECT count(*) AS n FROM emails WHERE status IN ('QUEUED', 'SCHEDULED')`.execute(deps.db);
if (Number(stray.rows[0]!.n) > 0) throw new Error(`${stray.rows[0]!.n} other emails wait for delivery in the database`);
const app = await buildApp(deps);
const loads: Record<string, string> = {};

// ---- 1. runner throughput ----

const teams: BenchTeam[] = [];
for (let i = 0; i * PER_TEAM < RUNS; i++) teams.push(await benchTeam(deps, app, `${NAME}-runs-${i}`));
const runsBench = { deps, app, config, teams, runs: RUNS, perTeam: PER_TEAM };

process.stderr.write(`journeys bench: ${RUNS.toLocaleString('en-US')} runs; baseline first (load ${loadAverage()})\n`);
loads.deliveryStart = loadAverage();
const delivery = await deliveryRound(runsBench);
loads.deliveryEnd = loadAverage();
process.stderr.write(`baseline: ${delivery.toFixed(1)} s; runner next (load ${loadAverage()})\n`);
loads.runnerStart = loadAverage();
const runner = await runnerRound(runsBench);
loads.runnerEnd = loadAverage();
process.stderr.write(`runner: ${runner.toFixed(1)} s; bulk add next\n`);

// ---- 2. bulk add with and without an ACTIVE CONTACT_ADDED journey ----

const bulkTeam = await benchTeam(deps, app, `${NAME}-bulk`);
const plainBook = await call(app, bulkTeam, 'POST', '/v1/contactBooks', { name: 'Plain' });
const followedBook = await call(app, bulkTeam, 'POST', '/v1/contactBooks', { name: 'Followed' });
const followed = await call(app, bulkTeam, 'POST', '/v1/journeys', {
  name: 'On add',
  triggerType: 'CONTACT_ADDED',
  contactBookId: followedBook.id,
  steps: [{ id: 'welcome', type: 'EMAIL', templateId: bulkTeam.templateId, from: bulkTeam.from }],
});
await call(app, bulkTeam, 'POST', `/v1/journeys/${followed.id}/status`, { status: 'ACTIVE' });
const bulkTimes = { plain: [] as number[], followed: [] as number[] };
for (let round = 0; round < BULK_ROUNDS; round++) {
  for (const [kind, book] of [
    ['plain', plainBook],
    ['followed', followedBook],
  ] as const) {
    const body = Array.from({ length: BULK }, (_, i) => ({
      email: `${kind}-${round}-${i}@example.test`,
      firstName: `Reader ${i}`,
      properties: { plan: 'pro' },
    }));
    const started = performance.now();
    await call(app, bulkTeam, 'POST', `/v1/contactBooks/${book.id}/contacts/bulk`, body);
    bulkTimes[kind].push((performance.now() - started) / 1000);
  }
}
// Not timed: the enrolment queue makes the runs the bulk adds recorded; every contact must be enrolled.
const enrolments = new QueueRunner({
  database: deps.database,
  queues: [journeyEnrolmentsQueue()],
  clock: deps.clock,
  pollMs: 50,
});
await enrolments.start();
await drain(enrolments, 'journey-enrolments', () =>
  count(deps, sql<{ n: string }>`SELECT count(*) AS n FROM journey_enrolments WHERE journey_id = ${followed.id}::text`),
);
await enrolments.stop();
const enrolled = (await call(app, bulkTeam, 'GET', `/v1/journeys/${followed.id}`)).stats.enrolled as number;
if (enrolled !== BULK * BULK_ROUNDS) throw new Error(`bulk: ${enrolled} enrolled of ${BULK * BULK_ROUNDS}`);
await removeTeams(deps.db, 'name LIKE $1', [`${NAME}%`]);
await app.close();
await deps.close();

const plain = median(bulkTimes.plain);
const withJourney = median(bulkTimes.followed);
const runnerRatio = delivery / runner;
const bulkRatio = plain / withJourney;
const rate = (n: number, s: number) => Math.round(n / s).toLocaleString('en-US');
const verdict = (ratio: number, target: number) =>
  `**${(ratio * 100).toFixed(0)}%** (target: at least ${target * 100}%, ${ratio >= target ? 'met' : '**not met**'})`;
const body = [
  '## Journeys (journeys)',
  '',
  `\`npm exec -- node bench/journeys.ts\` on PostgreSQL (loopback), log mail transport, one process pinned to core 0. ${machineLine()}.`,
  '',
  `Runner: ${RUNS.toLocaleString('en-US')} runs due at once on an EMAIL step followed by a WAIT (contacts and runs inserted in SQL, pro teams of at most ${PER_TEAM.toLocaleString('en-US')} runs for the daily limit), one QueueRunner with the journey-runs queue, timed until every run has moved on (a claimed batch of up to 100 runs in one transaction: emails queued through queueEmails, runs at their WAIT, counters); checked afterwards: every run at its WAIT and sentByStep = ${RUNS.toLocaleString('en-US')}. Baseline: the email-delivery queue draining ${RUNS.toLocaleString('en-US')} plain QUEUED emails (same template, stored through queueEmails beforehand) to the log transport, in the same run.`,
  '',
  '| target | seconds | per second |',
  '|---|---:|---:|',
  `| email-delivery queue, QUEUED → SENT (baseline) | ${delivery.toFixed(1)} | ${rate(RUNS, delivery)} |`,
  `| journey-runs queue, EMAIL step → at its WAIT | ${runner.toFixed(1)} | ${rate(RUNS, runner)} |`,
  '',
  `Steps per second: ${verdict(runnerRatio, 0.5)} of the baseline.`,
  '',
  `Load average (1, 5, 15 min; \`uptime\`) on this shared machine: baseline ${loads.deliveryStart} at its start, ${loads.deliveryEnd} at its end; runner ${loads.runnerStart} at its start, ${loads.runnerEnd} at its end.`,
  '',
  `Bulk add: POST .../contacts/bulk of ${BULK.toLocaleString('en-US')} new contacts through the app (in process), median of ${BULK_ROUNDS} alternating requests per book: a book with an ACTIVE CONTACT_ADDED journey beside a book without one. With the journey, the request's transaction also stores the addition for the journey (one journey_enrolments row); the journey-enrolments queue makes the 1,000 runs afterwards (not timed; checked: every contact enrolled).`,
  '',
  '| target | seconds per request (median) | contacts/s |',
  '|---|---:|---:|',
  `| bulk add, no journey (baseline) | ${plain.toFixed(3)} | ${rate(BULK, plain)} |`,
  `| bulk add, ACTIVE CONTACT_ADDED journey | ${withJourney.toFixed(3)} | ${rate(BULK, withJourney)} |`,
  '',
  `Bulk add rate: ${verdict(bulkRatio, 0.7)} of the baseline.`,
].join('\n');
console.log(body);
writeSection('journeys', body);
process.exit(0);
