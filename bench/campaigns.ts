// Campaigns (issue 44), on PostgreSQL:
//
// 1. Fan-out: a campaign to a book of BENCH_CONTACTS contacts (default 1,000,000), timed from its
//    schedule until every email row is queued (one fan-out runner in this process, which serves the
//    API too), beside a bare INSERT … SELECT of as many similar email rows from the same contacts in
//    the same run. Target: at least 30% of the bare statement's rate; the process's RSS growth under
//    200 MB.
// 2. Isolation: while that campaign delivers to an SMTP sink, transactional sends of another team at
//    a steady rate: p99 from POST to accepted by the sink, beside the same with the transactional
//    lane alone (no campaign delivering), alternating rounds. Target: at most 2 ×.
//
// Run: npm exec -- node bench/campaigns.ts   (CAMPAIGNS_BENCH_DATABASE_URL, by default
// herald_bench_campaigns beside BENCH_DATABASE_URL, made for the run and dropped after it;
// BENCH_CONTACTS; BENCH_SENDS per isolation round, default 500; BENCH_FANOUT_ONLY=1 times the fan-out
// alone and writes nothing). The contacts are made by set-based SQL. The
// process's plans let the pro plan send the whole campaign in a day, as an operator's
// HERALD_PLANS_FILE would (the shipped one stops a pro team at 50,000). Progress on stderr every 10 s.
//
// Its parts: bench/campaigns/ (fanout.ts, isolation.ts, sink.ts: the sink's own process on core 1).
import os from 'node:os';
import { sql } from 'kysely';
import pino from 'pino';
import { BENCH_DATABASE_URL, dropDatabase, freshDatabase } from './database.ts';
import { BENCH_SECRET } from './herald-app.ts';
import { median, percentile, pinToCoreZero } from './measure.ts';
import { machineLine, verdict, writeSection } from './results.ts';
import { sinkMain, startSink } from './campaigns/sink.ts';
import { startStatisticsChore } from './statistics-chore.ts';

const CONTACTS = Number(process.env.BENCH_CONTACTS ?? 1_000_000);
const SENDS = Number(process.env.BENCH_SENDS ?? 500);
const PER_SECOND = 25;
const ROUNDS = 4;
const NAME = 'bench-campaigns';
const DATABASE_URL =
  process.env.CAMPAIGNS_BENCH_DATABASE_URL ?? BENCH_DATABASE_URL.replace(/\/[^/]*$/, '/herald_bench_campaigns');

const progress = (line: string) => process.stderr.write(`${new Date().toISOString().slice(11, 19)} ${line}\n`);
const loadAverage = () =>
  os
    .loadavg()
    .map((n) => n.toFixed(2))
    .join(', ');

async function main(): Promise<void> {
  pinToCoreZero();
  // A database of its own, made for the run: the fan-out starts on month partitions as an install
  // has them (never analysed), not on ones an earlier run filled, emptied and analysed empty.
  await freshDatabase(DATABASE_URL);
  const { loadConfig } = await import('../src/config.ts');
  const { buildDeps } = await import('../src/build-deps.ts');
  const { migrate } = await import('../src/db/migrate.ts');
  const { sinkRelay } = await import('./email-delivery/runner.ts');
  const { sessionBounces } = await import('../src/feedback/index.ts');
  const { seedDeliveryTeam } = await import('./delivery-team.ts');
  const { bareInsert, heraldFanout, seedBook } = await import('./campaigns/fanout.ts');
  const { isolationRound } = await import('./campaigns/isolation.ts');

  const sink = await startSink(import.meta.filename);
  const loaded = loadConfig({});
  // A plans file whose pro plan has no daily limit: the shipped one stops a pro team at 50,000 a day.
  const plans = { ...loaded.plans, pro: { ...loaded.plans.pro, dailySends: null } };
  const config = { ...loaded, plans, databaseUrl: DATABASE_URL, secret: BENCH_SECRET, adminToken: null };
  const deps = await buildDeps(config, { logger: pino({ level: 'silent' }) });
  const relay = () => sinkRelay(deps, config.mailDomain, sink.url);
  // Two relays, as buildDeps makes them: the bulk lane's connections are its own.
  const transport = relay();
  const bulkTransport = relay();
  let chore: { stop(): Promise<void> } | undefined;
  try {
    await migrate(deps.database);
    const sender = await seedDeliveryTeam(deps, { name: `${NAME}-transactional`, domainLabel: 'transactional' });
    const marketer = await seedDeliveryTeam(deps, {
      name: `${NAME}-marketing`,
      domainLabel: 'campaigns',
      app: sender.app,
    });
    const team = {
      id: marketer.team.id,
      domainId: marketer.domain.id,
      from: marketer.from,
      authorization: marketer.authorization,
    };
    progress(`making a book of ${CONTACTS.toLocaleString('en-US')} contacts`);
    const bookId = await seedBook(marketer.app, deps.db, team, CONTACTS);

    progress('bare INSERT … SELECT');
    const bareSeconds = await bareInsert(deps.db, team, bookId);
    progress(`bare: ${bareSeconds.toFixed(1)} s; Herald's fan-out`);
    // Herald's part runs beside the worker's statistics chore, as `herald start` runs it: a million
    // new emails are analysed within a minute, and the delivery lanes' claims plan with them.
    chore = await startStatisticsChore(deps.db);
    const fanout = await heraldFanout(deps, marketer.app, team, bookId, progress);
    if (fanout.emails !== CONTACTS)
      throw new Error(`${fanout.emails} of ${CONTACTS} campaign emails are QUEUED after the fan-out`);
    const fanoutLoad = loadAverage();
    if (process.env.BENCH_FANOUT_ONLY) {
      progress(
        `fan-out only: bare ${bareSeconds.toFixed(1)} s, Herald ${fanout.seconds.toFixed(1)} s, RSS +${Math.round(fanout.rssGrowthMb)} MB`,
      );
      return;
    }

    const delivery = {
      secrets: deps.secrets,
      publicUrl: config.publicUrl,
      transport,
      mailDomain: config.mailDomain,
      bounces: sessionBounces,
    };
    const round = (n: number, campaign: boolean, sends: number) =>
      isolationRound({
        app: sender.app,
        deps,
        authorization: sender.authorization,
        from: sender.from,
        delivery,
        bulkTransport,
        arrivals: sink.arrivals,
        campaign,
        round: n,
        sends,
        perSecond: PER_SECOND,
      });
    // The fan-out's WAL leaves a spread checkpoint writing in the background for minutes, which
    // would fall on whichever rounds come first: flushed here, before any round.
    await sql`CHECKPOINT`.execute(deps.db);
    // Unmeasured: the first sends pay for JIT compilation and cold caches.
    await round(-1, false, PER_SECOND * 4);
    const latencies = { alone: [] as number[], campaign: [] as number[] };
    const campaignDelivered: number[] = [];
    for (let n = 0; n < ROUNDS; n++) {
      const campaign = n % 2 === 1;
      const before = await sink.others();
      const started = performance.now();
      const measured = await round(n, campaign, SENDS);
      (campaign ? latencies.campaign : latencies.alone).push(...measured);
      if (campaign) campaignDelivered.push(((await sink.others()) - before) / ((performance.now() - started) / 1000));
      progress(
        `isolation round ${n} (${campaign ? 'campaign delivering' : 'alone'}): p99 ${percentile(measured, 0.99)} ms`,
      );
    }
    const isolationLoad = loadAverage();

    const rate = (seconds: number) => Math.round(CONTACTS / seconds).toLocaleString('en-US');
    const fanoutRatio = bareSeconds / fanout.seconds;
    const p99 = { alone: percentile(latencies.alone, 0.99), campaign: percentile(latencies.campaign, 0.99) };
    const p50 = { alone: percentile(latencies.alone, 0.5), campaign: percentile(latencies.campaign, 0.5) };
    const isolationRatio = p99.campaign / p99.alone;
    const body = [
      '## Campaigns (fan-out and isolation)',
      '',
      `\`npm exec -- node bench/campaigns.ts\` on PostgreSQL (loopback), one process pinned to core 0 serving the API and running the queues, the SMTP sink in its own process on core 1. ${machineLine()}.`,
      '',
      `**Fan-out.** A campaign (a 2 KB personalised body with its unsubscribe link) to a book of ${CONTACTS.toLocaleString('en-US')} subscribed contacts made by set-based SQL, timed from POST …/schedule until the campaign is SENT (every recipient's email QUEUED through queueEmailSends, in chunks of 250 per transaction, two in flight, by one fan-out runner, beside the worker's planner-statistics chore), beside a bare \`INSERT … SELECT\` of as many email rows (the same body personalised by \`replace\`, QUEUED in the bulk lane, so its due index is kept too) from the same contacts into a table of its own with the same columns and indexes (\`LIKE emails INCLUDING ALL\`), run first and then dropped. The database is made for the run, so the fan-out starts on month partitions as a new install has them. RSS: the process's resident set sampled every 100 ms, peak minus the figure at the schedule. Load average after: ${fanoutLoad}.`,
      '',
      '| target | seconds | emails/s |',
      '|---|---:|---:|',
      `| bare INSERT … SELECT (baseline) | ${bareSeconds.toFixed(1)} | ${rate(bareSeconds)} |`,
      `| Herald's fan-out (schedule → SENT) | ${fanout.seconds.toFixed(1)} | ${rate(fanout.seconds)} |`,
      '',
      `Rate: **${(fanoutRatio * 100).toFixed(0)}%** of the bare statement's (target: at least 30%, ${verdict(fanoutRatio >= 0.3)}). RSS growth: **${Math.round(fanout.rssGrowthMb)} MB** (target: under 200 MB, ${verdict(fanout.rssGrowthMb < 200)}).`,
      '',
      `**Isolation.** Another team sends ${SENDS} transactional emails per round through POST /api/v1/emails at ${PER_SECOND} a second, each timed from its POST until the sink accepted it; ${ROUNDS} alternating rounds of the delivery worker with the transactional lane alone, then with both lanes (the campaign's ${CONTACTS.toLocaleString('en-US')} queued emails delivering meanwhile, at a median ${Math.round(median(campaignDelivered)).toLocaleString('en-US')} a second, each lane through its own relay connections (a pool of 5 each), as \`herald start\` runs them), after a CHECKPOINT that flushes what the fan-out wrote. Load average after: ${isolationLoad}.`,
      '',
      '| transactional mail | p50 ms | p99 ms |',
      '|---|---:|---:|',
      `| no campaign delivering (baseline) | ${p50.alone} | ${p99.alone} |`,
      `| campaign delivering | ${p50.campaign} | ${p99.campaign} |`,
      '',
      `p99: **${isolationRatio.toFixed(2)} ×** the baseline's (target: at most 2 ×, ${verdict(isolationRatio <= 2)}).`,
    ].join('\n');
    console.log(body);
    writeSection('campaigns', body);
  } finally {
    await chore?.stop();
    await transport.close();
    await bulkTransport.close();
    sink.child.kill('SIGKILL');
    await deps.close();
    progress('dropping the database');
    await dropDatabase(DATABASE_URL);
  }
}

if (process.argv[2] === 'sink') await sinkMain();
else await main();
