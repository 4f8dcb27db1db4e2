// Herald at two sizes in the same run, on PostgreSQL (issue: scale): one team with 10,000 emails,
// then the same team grown to 10,000,000 emails and 30,000,000 events over the 12 months before this
// one and this month so far, measured by the same code at both sizes: sends (throughput and p99), the
// email list's first page and a page 10,000 rows deep, the analytics and billing usage reads,
// delivery from a backlog (2,000 QUEUED against 1,000,000), then at the large size a retention run
// dropping the oldest month during a send round, and the bytes on disk per email. Targets: large
// against small (bench/scale/report.ts).
// Run: npm exec -- node bench/scale.ts < /dev/null
//   BENCH_SCALE_DATABASE_URL (default herald_bench_scale next to BENCH_DATABASE_URL; dropped and made
//   afresh), BENCH_SCALE_EMAILS (default 10,000,000; about 25 GB, an hour or more: for a quiet
//   machine), BENCH_SCALE_SMALL (default 10,000), BENCH_SCALE_BACKLOG (default a tenth of the emails).
//
// The parts: bench/scale/setup.ts (settings, the database partitioned like a year of Herald),
// generate.ts (the history, month by month), reads.ts, send.ts (also the server child), delivery.ts,
// report.ts (the RESULTS.md section).
import os from 'node:os';
import { sql } from 'kysely';
import { migrate } from '../src/db/migrate.ts';
import { ManualClock } from '../src/platform/clock.ts';
import { runRetention } from '../src/retention/run.ts';
import { seedDeliveryTeam } from './delivery-team.ts';
import { sinkMain, startSink } from './email-delivery/sink.ts';
import { pinToCoreZero } from './measure.ts';
import { writeSection } from './results.ts';
import { withStatisticsChore } from './statistics-chore.ts';
import { measureDelivery, DELIVERY_ROUNDS } from './scale/delivery.ts';
import { generateHistory, measureSizes, type Team } from './scale/generate.ts';
import { readBench } from './scale/reads.ts';
import { scaleSection, type SizeFigures } from './scale/report.ts';
import { measureSend, measureSendDuringRetention, serveMain, startSendServer } from './scale/send.ts';
import {
  count,
  DAY_MS,
  LARGE_BACKLOG,
  LARGE_EMAILS,
  markBodiesRemoved,
  MONTHS,
  monthStart,
  partitionLikeAYear,
  recreateDatabase,
  SCALE_DATABASE_URL,
  scaleDeps,
  SMALL_BACKLOG,
  SMALL_EMAILS,
  TEAM_NAME,
  yyyymm,
} from './scale/setup.ts';

/**
 * Deliveries counted from the large backlog in each round (20,000 of 1,000,000 at the default size);
 * a round's last batches are delivered past its count, so the rounds never need the whole backlog.
 */
const LARGE_DELIVERIES = Math.min(20_000, Math.floor(LARGE_BACKLOG / (DELIVERY_ROUNDS + 1)));

const loadAverage = () =>
  os
    .loadavg()
    .map((v) => v.toFixed(1))
    .join(' / ');

function commandLine(): string {
  const env = ['BENCH_SCALE_EMAILS', 'BENCH_SCALE_SMALL', 'BENCH_SCALE_BACKLOG']
    .filter((name) => process.env[name] !== undefined)
    .map((name) => `${name}=${process.env[name]} `)
    .join('');
  return `${env}npm exec -- node bench/scale.ts`;
}

/** Days of retention for a run at `at` under which exactly the oldest month of history has expired. */
function retentionDaysAt(at: Date) {
  // The oldest month ends where the next begins: a cutoff within that next month's first day.
  const eventsDays = Math.floor((at.getTime() - monthStart(at, -(MONTHS - 1)).getTime()) / DAY_MS);
  // The newest month of history keeps its bodies: the cutoff at or before its start (the mark).
  const bodiesDays = Math.ceil((at.getTime() - monthStart(at, -1).getTime()) / DAY_MS);
  return { bodiesDays, eventsDays };
}

async function main(): Promise<void> {
  if (LARGE_EMAILS <= SMALL_EMAILS) throw new Error('BENCH_SCALE_EMAILS must be larger than BENCH_SCALE_SMALL');
  pinToCoreZero();
  const runStarted = performance.now();
  const loadBefore = loadAverage();
  console.log(`database ${SCALE_DATABASE_URL}: made afresh`);
  await recreateDatabase();
  const { config, deps } = await scaleDeps();
  const clock = new ManualClock();
  const forReads = await scaleDeps(clock);
  const sink = await startSink(import.meta.filename);
  const children = [sink.child];
  try {
    await migrate(deps.database);
    const now = new Date();
    await partitionLikeAYear(deps.db, now);
    await markBodiesRemoved(deps.db, now);
    const delivery = await seedDeliveryTeam(deps, { name: TEAM_NAME, domainLabel: 'scale' });
    const { db } = deps;
    const domain = await db
      .selectFrom('domains')
      .select('id')
      .where('name', '=', delivery.domainName)
      .executeTakeFirstOrThrow();
    const team: Team = { id: delivery.team.id, domainId: domain.id, domainName: delivery.domainName };
    const server = await startSendServer(import.meta.filename, delivery.authorization, delivery.from);
    children.push(server.child);
    const reads = await readBench(forReads.deps, clock, team.id);

    const measureSize = async (label: 'small' | 'large', emails: number, salt: number): Promise<SizeFigures> => {
      console.log(`${label}: generating ${count(emails)} emails`);
      const generated = await generateHistory(db, team, now, emails - (label === 'large' ? SMALL_EMAILS : 0), salt);
      const sizes = await measureSizes(db, team.id);
      console.log(
        `${label}: ${count(sizes.emails)} emails, database ${(sizes.databaseBytes / 1024 ** 3).toFixed(2)} GB, generated in ${generated.seconds.toFixed(0)} s`,
      );
      return withStatisticsChore(db, () => measureAt(label, generated, sizes, emails));
    };
    const measureAt = async (
      label: 'small' | 'large',
      generated: Awaited<ReturnType<typeof generateHistory>>,
      sizes: Awaited<ReturnType<typeof measureSizes>>,
      emails: number,
    ): Promise<SizeFigures> => {
      console.log(`${label}: reads`);
      const readFigures = await reads.measure(new Date());
      for (const [name, r] of Object.entries(readFigures))
        console.log(`  ${name}: median ${r.median.toFixed(2)} ms, p95 ${r.p95.toFixed(2)} ms`);
      console.log(`${label}: sends`);
      const send = await measureSend(db, team.id, server);
      console.log(`${label}: delivery`);
      const deliveryStarted = new Date(Date.now() - 1000);
      const backlog = label === 'small' ? SMALL_BACKLOG : LARGE_BACKLOG;
      const deliveries = label === 'small' ? SMALL_BACKLOG : LARGE_DELIVERIES;
      const figures = await measureDelivery(config, deps, sink, delivery, { backlog, deliveries, label });
      // The small team's delivered backlog goes, so the large team is its history alone; the large
      // one's rest stays QUEUED in the current month, which retention does not touch.
      if (label === 'small') {
        await sql`DELETE FROM emails WHERE team_id = ${team.id}::int
          AND id >= herald_id_floor('em_', ${deliveryStarted}::timestamptz)`.execute(db);
        // The deleted rows (sends and backlog) vacuumed away, as autovacuum does after a mass delete:
        // left dead in this month, every index scan by team of the large size would walk them.
        const month = `_m${yyyymm(new Date())}`;
        for (const table of ['emails', 'email_events', 'email_recipients', 'email_attachments', 'email_opens'])
          await sql`VACUUM ANALYZE ${sql.table(table + month)}`.execute(db);
      }
      console.log(`  ${Math.round(figures.perSecond)} emails/s`);
      return { emails, generated: { ...generated, emails }, sizes, reads: readFigures, send, delivery: figures };
    };

    const small = await measureSize('small', SMALL_EMAILS, 1);
    const large = await measureSize('large', LARGE_EMAILS, 2);

    console.log('large: retention during sends');
    const retentionDays = retentionDaysAt(new Date());
    const retention = await withStatisticsChore(db, () =>
      measureSendDuringRetention(db, team.id, server, () => runRetention(db, new Date(), retentionDays)),
    );
    const droppedMonth = monthStart(now, -MONTHS).toISOString().slice(0, 7);
    // Asked of the catalogue: an attempt that deadlocked may have dropped it before failing.
    const oldest = `emails_m${droppedMonth.replace('-', '')}`;
    const left = await sql<{ left: string | null }>`SELECT to_regclass(${oldest})::text AS left`.execute(db);
    if (left.rows[0]!.left !== null)
      throw new Error(`retention did not drop ${oldest}: ${retention.dropped.join(', ')}`);
    await reads.close();
    await delivery.app.close();

    const body = scaleSection({
      command: commandLine(),
      database: new URL(SCALE_DATABASE_URL).pathname.slice(1),
      small,
      large,
      retention,
      retentionDays,
      droppedMonth,
      totalMinutes: (performance.now() - runStarted) / 60_000,
      load: { before: loadBefore, after: loadAverage() },
    });
    console.log(body);
    writeSection('scale', body);
  } finally {
    for (const child of children) child.kill('SIGTERM');
    await forReads.deps.close();
    await deps.close();
  }
}

if (process.argv[2] === 'serve') await serveMain();
else if (process.argv[2] === 'sink') await sinkMain();
else await main();
