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
import os from 'node:os';
import pino from 'pino';
import { BENCH_DATABASE_URL, ensureDatabase } from './database.ts';
import { BENCH_SECRET } from './herald-app.ts';
import { median, pinToCoreZero } from './measure.ts';
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
const { createTeam, addMember, updateTeam, createApiKey } = await import('../src/accounts/index.ts');
const { QueueRunner } = await import('../src/queue/index.ts');
const { emailDeliveryQueue, queueEmails } = await import('../src/emails/index.ts');
const { journeyEnrolmentsQueue, journeyRunsQueue } = await import('../src/journeys/index.ts');
const { systemPrincipal } = await import('../src/platform/auth/system-principal.ts');

const config = {
  ...loadConfig({}),
  databaseUrl: BENCH_DATABASE_URL,
  secret: BENCH_SECRET,
  adminToken: null,
  mailTransport: { kind: 'log' as const },
};
const deps = await buildDeps(config, { logger: pino({ level: 'silent' }) });
await migrate(deps.database);
await sql`DELETE FROM teams WHERE name LIKE ${`${NAME}%`}`.execute(deps.db);
const stray = await sql<{
  n: string;
}>`SELECT count(*) AS n FROM emails WHERE status IN ('QUEUED', 'SCHEDULED')`.execute(deps.db);
if (Number(stray.rows[0]!.n) > 0) throw new Error(`${stray.rows[0]!.n} other emails wait for delivery in the database`);
const app = await buildApp(deps);

interface BenchTeam {
  id: number;
  authorization: string;
  from: string;
  templateId: string;
}

async function call(team: BenchTeam, method: 'POST' | 'GET', url: string, payload?: unknown) {
  const response = await app.inject({
    method,
    url: `/api${url}`,
    headers: { authorization: team.authorization },
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
  if (response.statusCode >= 300) throw new Error(`${method} ${url} answered ${response.statusCode}: ${response.body}`);
  return response.json() as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
}

async function benchTeam(suffix: string): Promise<BenchTeam> {
  const now = new Date();
  const team = await createTeam(deps.db, { name: `${NAME}-${suffix}`, plan: 'pro' }, now);
  await updateTeam(deps.db, team.id, { apiRateLimit: 1_000_000_000 }, now);
  const owner = await addMember(deps.db, team.id, { email: `bench-${team.id}@example.test`, role: 'OWNER' }, now);
  const { key } = await createApiKey(deps.db, deps.secrets, team.id, { kind: 'full', memberId: owner.id });
  const partial = { id: team.id, authorization: `Bearer ${key}`, from: '', templateId: '' };
  const domainName = `journeys-${team.id}.bench.example.test`;
  const domain = await call(partial, 'POST', '/v1/domains', { name: domainName, region: 'us-east-1' });
  await deps.db
    .updateTable('domains')
    .set({ status: 'SUCCESS', verified_at: now, is_verifying: false })
    .where('id', '=', domain.id)
    .execute();
  const template = await call(partial, 'POST', '/v1/templates', {
    name: 'Welcome',
    subject: 'Welcome, {{firstName}}',
    type: 'TRANSACTIONAL',
    html: '<p>Hello {{firstName}}, your plan is {{plan}}.</p>',
  });
  return { ...partial, from: `Bench <hello@${domainName}>`, templateId: template.id };
}

/** The machine is shared: the load average goes beside each figure. */
const loadAverage = () =>
  os
    .loadavg()
    .map((n) => n.toFixed(1))
    .join(', ');
const loads: Record<string, string> = {};

async function drain(runner: InstanceType<typeof QueueRunner>, queue: string, remaining: () => Promise<number>) {
  // Progress on stderr every 10 s: a round of 100,000 takes minutes.
  const started = performance.now();
  const progress = setInterval(() => {
    void remaining().then((left) =>
      process.stderr.write(
        `${queue}: ${left.toLocaleString('en-US')} left after ${Math.round((performance.now() - started) / 1000)} s (load ${loadAverage()})\n`,
      ),
    );
  }, 10_000);
  try {
    runner.notify(queue);
    for (;;) {
      await runner.idle();
      if ((await remaining()) === 0) return;
      runner.notify(queue);
    }
  } finally {
    clearInterval(progress);
  }
}

const count = async (query: ReturnType<typeof sql<{ n: string }>>) => Number((await query.execute(deps.db)).rows[0]!.n);

// ---- 1. runner throughput ----

const teams: BenchTeam[] = [];
for (let i = 0; i * PER_TEAM < RUNS; i++) teams.push(await benchTeam(`runs-${i}`));
const share = (i: number) => Math.min(PER_TEAM, RUNS - i * PER_TEAM);

async function runnerRound(): Promise<number> {
  const journeyIds: string[] = [];
  for (const [i, team] of teams.entries()) {
    await sql`DELETE FROM team_daily_usage WHERE team_id = ${team.id}`.execute(deps.db);
    const book = await call(team, 'POST', '/v1/contactBooks', { name: 'Runs', variables: ['plan'] });
    const journey = await call(team, 'POST', '/v1/journeys', {
      name: 'Welcome',
      triggerType: 'API',
      contactBookId: book.id,
      steps: [
        { id: 'welcome', type: 'EMAIL', templateId: team.templateId, from: team.from },
        { id: 'wait', type: 'WAIT', seconds: 86_400 },
      ],
    });
    await call(team, 'POST', `/v1/journeys/${journey.id}/status`, { status: 'ACTIVE' });
    journeyIds.push(journey.id);
    const now = new Date();
    await sql`INSERT INTO contacts (id, team_id, contact_book_id, email, first_name, subscribed, properties, confirmed_at, created_at, updated_at)
      SELECT herald_new_id('ct_', ${now}::timestamptz), ${team.id}::integer, ${book.id}::text, 'reader-' || g || '@example.test',
             'Reader ' || g, true, '{"plan":"pro"}'::jsonb, ${now}::timestamptz, ${now}::timestamptz, ${now}::timestamptz
      FROM generate_series(1, ${share(i)}::integer) g`.execute(deps.db);
    await sql`INSERT INTO journey_runs (id, team_id, journey_id, contact_id, status, next_run_at, created_at, updated_at)
      SELECT herald_new_id('jrun_', ${now}::timestamptz), team_id, ${journey.id}::text, id, 'ACTIVE', ${now}::timestamptz, ${now}::timestamptz, ${now}::timestamptz
      FROM contacts WHERE team_id = ${team.id}::integer AND contact_book_id = ${book.id}::text`.execute(deps.db);
    await sql`UPDATE journey_stats SET enrolled = ${share(i)}::integer, active = ${share(i)}::integer WHERE journey_id = ${journey.id}::text`.execute(
      deps.db,
    );
  }
  await sql`ANALYZE journey_runs`.execute(deps.db);
  const runner = new QueueRunner({
    database: deps.database,
    queues: [journeyRunsQueue()],
    clock: deps.clock,
    pollMs: 50,
  });
  const started = performance.now();
  await runner.start();
  await drain(runner, 'journey-runs', () =>
    count(
      sql<{
        n: string;
      }>`SELECT count(*) AS n FROM journey_runs WHERE journey_id = ANY (${journeyIds}::text[]) AND current_step_index = 0`,
    ),
  );
  const seconds = (performance.now() - started) / 1000;
  await runner.stop();
  const moved = await count(
    sql<{
      n: string;
    }>`SELECT count(*) AS n FROM journey_runs WHERE journey_id = ANY (${journeyIds}::text[]) AND current_step_index = 2 AND status = 'ACTIVE'`,
  );
  const sent = await count(
    sql<{
      n: string;
    }>`SELECT coalesce(sum((sent_by_step ->> 'welcome')::integer), 0) AS n FROM journey_stats WHERE journey_id = ANY (${journeyIds}::text[])`,
  );
  if (moved !== RUNS || sent !== RUNS)
    throw new Error(`runner round: ${moved} runs moved on, ${sent} emails counted, of ${RUNS}`);
  // The queued emails would be delivered by the baseline's worker: they go with their runs.
  await sql`DELETE FROM emails WHERE team_id = ANY (${teams.map((t) => t.id)}::integer[])`.execute(deps.db);
  await sql`DELETE FROM journeys WHERE id = ANY (${journeyIds}::text[])`.execute(deps.db);
  await sql`DELETE FROM contact_books WHERE team_id = ANY (${teams.map((t) => t.id)}::integer[])`.execute(deps.db);
  return seconds;
}

async function deliveryRound(): Promise<number> {
  const now = new Date();
  for (const [i, team] of teams.entries()) {
    await sql`DELETE FROM team_daily_usage WHERE team_id = ${team.id}`.execute(deps.db);
    for (let start = 0; start < share(i); start += 100) {
      const inputs = Array.from({ length: Math.min(100, share(i) - start) }, (_, k) => ({
        from: team.from,
        to: `reader-${start + k}@example.test`,
        templateId: team.templateId,
        variables: { firstName: `Reader ${start + k}`, plan: 'pro' },
      }));
      await deps.db
        .transaction()
        .execute((tx) => queueEmails(tx, systemPrincipal(team.id, 'journey'), inputs, { now, batch: true }));
    }
  }
  const runner = new QueueRunner({
    database: deps.database,
    queues: [
      emailDeliveryQueue({
        secrets: deps.secrets,
        publicUrl: config.publicUrl,
        transport: deps.mailTransport,
        mailDomain: config.mailDomain,
      }),
    ],
    clock: deps.clock,
    pollMs: 50,
  });
  const ids = teams.map((t) => t.id);
  const started = performance.now();
  await runner.start();
  await drain(runner, 'email-delivery', () =>
    count(
      sql<{
        n: string;
      }>`SELECT count(*) AS n FROM emails WHERE team_id = ANY (${ids}::integer[]) AND status = 'QUEUED'`,
    ),
  );
  const seconds = (performance.now() - started) / 1000;
  await runner.stop();
  await sql`DELETE FROM emails WHERE team_id = ANY (${ids}::integer[])`.execute(deps.db);
  await sql`DELETE FROM outbox WHERE created_at >= ${now}::timestamptz`.execute(deps.db).catch(() => undefined);
  return seconds;
}

process.stderr.write(`journeys bench: ${RUNS.toLocaleString('en-US')} runs; baseline first (load ${loadAverage()})\n`);
loads.deliveryStart = loadAverage();
const delivery = await deliveryRound();
loads.deliveryEnd = loadAverage();
process.stderr.write(`baseline: ${delivery.toFixed(1)} s; runner next (load ${loadAverage()})\n`);
loads.runnerStart = loadAverage();
const runner = await runnerRound();
loads.runnerEnd = loadAverage();
process.stderr.write(`runner: ${runner.toFixed(1)} s; bulk add next\n`);

// ---- 2. bulk add with and without an ACTIVE CONTACT_ADDED journey ----

const bulkTeam = await benchTeam('bulk');
const plainBook = await call(bulkTeam, 'POST', '/v1/contactBooks', { name: 'Plain' });
const followedBook = await call(bulkTeam, 'POST', '/v1/contactBooks', { name: 'Followed' });
const followed = await call(bulkTeam, 'POST', '/v1/journeys', {
  name: 'On add',
  triggerType: 'CONTACT_ADDED',
  contactBookId: followedBook.id,
  steps: [{ id: 'welcome', type: 'EMAIL', templateId: bulkTeam.templateId, from: bulkTeam.from }],
});
await call(bulkTeam, 'POST', `/v1/journeys/${followed.id}/status`, { status: 'ACTIVE' });
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
    await call(bulkTeam, 'POST', `/v1/contactBooks/${book.id}/contacts/bulk`, body);
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
  count(sql<{ n: string }>`SELECT count(*) AS n FROM journey_enrolments WHERE journey_id = ${followed.id}::text`),
);
await enrolments.stop();
const enrolled = (await call(bulkTeam, 'GET', `/v1/journeys/${followed.id}`)).stats.enrolled as number;
if (enrolled !== BULK * BULK_ROUNDS) throw new Error(`bulk: ${enrolled} enrolled of ${BULK * BULK_ROUNDS}`);
await sql`DELETE FROM teams WHERE name LIKE ${`${NAME}%`}`.execute(deps.db);
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
