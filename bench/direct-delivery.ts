// Direct delivery as a real MTA (issue 43): Herald's delivery worker on HERALD_MAIL_TRANSPORT=direct
// takes EMAILS DKIM-signed emails (2.0 KB of HTML, one recipient each) to 10 recipient domains whose MX
// hosts are 127.0.0.11 … 127.0.0.20, all served by one SMTP sink (test/support/smtp-sink.ts) on one
// port, with a loopback DNS server (test/support/dns-server.ts) answering the MX and A records. The
// sink logs every connection by the address it came in on, so it sees each destination on its own:
// messages per connection, QUIT at the end of each session, and the peak of connections open at once.
// Two runs: recipients interleaved (d0, d1, …, d9, d0, …) and grouped (all of d0, then d1, …).
//
// Baseline, in the same run and for each order: a bare loop that builds and signs the same messages
// with the same MIME code and key (buildMessage + signMessage), all in flight at once, over one
// nodemailer pool per destination (maxConnections = the same limit), straight to the destination's
// address (no DNS). Both are timed from their start until the sink has accepted every message.
//
// Herald is configured as an operator would, through loadConfig and buildDeps:
// HERALD_MAIL_TRANSPORT=direct, HERALD_DNS_SERVERS, HERALD_MX_PORT, and HERALD_DIRECT_MAX_CONNECTIONS
// (the per-destination limit: Herald's default, 5, unless set in the environment of the run). Each run
// gets fresh deps (a fresh transport and DNS cache) on the shared database, closed after the run so
// that its sessions end as they would at shutdown.
// The emails are seeded QUEUED through POST /api/v1/emails/batch while no worker runs; the sending
// domain is created through the API and marked verified directly in the database.
//
// The sink and the DNS server run in their own process pinned to core 1 (this file started again
// with `sink`); Herald's worker and the bare loop in this one, pinned to core 0.
// Run: npm exec -- node bench/direct-delivery.ts   (BENCH_DATABASE_URL; BENCH_EMAILS, default 2000)
//
// Its parts: bench/direct-delivery/ (the settings, the sink's process, the team and domain, a Herald
// run, the bare loop, the report).
import pino from 'pino';
import { BENCH_DATABASE_URL, ensureDatabase } from './database.ts';
import { BENCH_SECRET } from './herald-app.ts';
import { pinToCoreZero, startPinnedChild } from './measure.ts';
import { removeTeams } from './remove-teams.ts';
import type { OrderResult } from './direct-delivery/report.ts';
import { ROUNDS } from './direct-delivery/settings.ts';
import type { Bench } from './direct-delivery/setup.ts';
import { runTimer, sinkMain, type RunFigures } from './direct-delivery/sink.ts';

async function main(): Promise<void> {
  pinToCoreZero();
  await ensureDatabase(BENCH_DATABASE_URL);
  const { loadConfig } = await import('../src/config.ts');
  const { buildDeps } = await import('../src/build-deps.ts');
  const { migrate } = await import('../src/db/migrate.ts');
  const { seedTeam } = await import('./direct-delivery/setup.ts');
  const { heraldRun } = await import('./direct-delivery/herald-run.ts');
  const { bareRun } = await import('./direct-delivery/bare-loop.ts');
  const { writeReport } = await import('./direct-delivery/report.ts');

  const { child, info } = await startPinnedChild<{ port: number; dns: string }>(import.meta.filename, ['sink']);
  const config = {
    ...loadConfig({
      HERALD_MAIL_TRANSPORT: 'direct',
      HERALD_DNS_SERVERS: info.dns,
      HERALD_MX_PORT: String(info.port),
      // The per-destination limit: Herald's default unless the environment of the run sets it.
      ...(process.env.HERALD_DIRECT_MAX_CONNECTIONS === undefined
        ? {}
        : { HERALD_DIRECT_MAX_CONNECTIONS: process.env.HERALD_DIRECT_MAX_CONNECTIONS }),
    }),
    databaseUrl: BENCH_DATABASE_URL,
    secret: BENCH_SECRET,
    adminToken: null,
  };
  /** HERALD_DIRECT_MAX_CONNECTIONS as Herald read it; the bare pools get the same limit. */
  const LIMIT = config.direct.maxConnections;
  const logger = pino({ level: 'silent' });
  const deps = await buildDeps(config, { logger });
  try {
    await migrate(deps.database);
    const seeded = await seedTeam(deps);
    const bench: Bench = {
      ...seeded,
      config,
      logger,
      deps,
      limit: LIMIT,
      port: info.port,
      timed: runTimer(child, seeded.dkimKey),
    };

    // Each order ROUNDS times, baseline and Herald alternating; the table shows each sender's median run.
    const median = (runs: RunFigures[]) =>
      [...runs].sort((a, b) => a.seconds - b.seconds)[Math.floor(runs.length / 2)]!;
    const results: OrderResult[] = [];
    for (const order of ['interleaved', 'grouped'] as const) {
      const bares: RunFigures[] = [];
      const heralds: RunFigures[] = [];
      for (let round = 1; round <= ROUNDS; round += 1) {
        bares.push(await bareRun(bench, order, round));
        heralds.push(await heraldRun(bench, order, round));
      }
      const ratios = bares.map((b, i) => b.seconds / heralds[i]!.seconds);
      results.push({ order, bare: median(bares), herald: median(heralds), ratios });
    }
    await seeded.app.close();
    writeReport(results, LIMIT);
  } finally {
    child.kill('SIGKILL');
    // A failed run leaves no queued email behind for the next benchmark's worker.
    await removeTeams(deps.db, "name = 'bench-direct-delivery'");
    await deps.close();
  }
}

if (process.argv[2] === 'sink') await sinkMain();
else await main();
