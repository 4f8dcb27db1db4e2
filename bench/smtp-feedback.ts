// The inbound SMTP listener: DSNs processed per second from a pipelined client, beside a bare
// smtp-server that accepts and discards the same messages in the same run. Target: at least 50%.
// Run: npm exec -- node bench/smtp-feedback.ts   (PostgreSQL: BENCH_DATABASE_URL's server, database
// herald_bench_feedback; BENCH_DSNS, default 2000 per round)
//
// Herald is what `herald start` runs: startInboundSmtp (smtp-server, the RCPT TO check of the
// HMAC-signed return path, the spool: each 250 waits for the commit of the message's row, and the
// listener's own processing of what it spooled: it parses each DSN, matches the email and records the
// BOUNCED event and the suppression, many to a transaction) and the worker runner (its
// inbound-messages queue takes only what a listener did not finish: nothing here). Herald's time runs
// from the client's first connect until the last DSN is recorded and its spool row deleted, not to
// the last 250: a DSN counts as processed once its bounce is recorded. Each round's DSNs name real emails:
// they are seeded through POST /api/v1/emails/batch (no worker runs) and then marked SENT directly in
// the database, since the delivery worker is not what this measures (bench/email-delivery.ts is).
// The client is a raw-socket SMTP client using PIPELINING (RFC 2920) in a child pinned to core 1;
// both servers run in the parent pinned to core 0, in alternating rounds, and the medians are kept.
import { sql, type Kysely } from 'kysely';
import pino from 'pino';
import type { Database } from '../src/db/schema.ts';
import { BENCH_DATABASE_URL, ensureDatabase } from './database.ts';
import { median, pinToCoreZero, startPinnedChild } from './measure.ts';
import { removeTeams } from './remove-teams.ts';
import { machineLine, writeSection } from './results.ts';
import { BENCH_SECRET } from './herald-app.ts';
import {
  clientMain,
  CONNECTIONS,
  freePort,
  MAX_MESSAGE_BYTES,
  MESSAGES_PER_CONNECTION,
  runClient,
  smtpData,
  startBareServer,
  type ClientFigures,
  type SmtpMessage,
} from './smtp-pipelined.ts';

const DSNS = Number(process.env.BENCH_DSNS ?? 2000);
const ROUNDS = 3;
const SEED_BATCH = 100;
const DATABASE_URL = (() => {
  const url = new URL(BENCH_DATABASE_URL);
  url.pathname = '/herald_bench_feedback';
  return url.toString();
})();

const recipient = (round: number, i: number) => `fb-${round}-${i}@example.test`;

function dsnFor(rcpt: string, to: string, emailId: string, mailDomain: string): SmtpMessage {
  const text = `From: Mail Delivery System <MAILER-DAEMON@mx.example.test>
To: ${rcpt}
Subject: Undelivered Mail Returned to Sender
MIME-Version: 1.0
Content-Type: multipart/report; report-type=delivery-status; boundary="DSN-B"

--DSN-B
Content-Type: text/plain

This is the mail system at host mx.example.test. Your message could not be delivered.

--DSN-B
Content-Type: message/delivery-status

Reporting-MTA: dns; mx.example.test

Final-Recipient: rfc822; ${to}
Action: failed
Status: 5.1.1
Remote-MTA: dns; mx2.example.test
Diagnostic-Code: smtp; 550 5.1.1 <${to}>: Recipient address rejected: User unknown

--DSN-B
Content-Type: text/rfc822-headers

Return-Path: <${rcpt}>
Message-ID: <${emailId}@${mailDomain}>
From: Herald Bench <bench@example.test>
To: ${to}
Subject: Your weekly summary

--DSN-B--
`;
  return { mailFrom: '', rcpt, data: smtpData(text) };
}

/** What durability costs on this server: a one-row INSERT (1 KB) and its COMMIT, alone; median of 200, in ms. */
async function commitLatencyMs(db: Kysely<Database>): Promise<number> {
  await sql`CREATE TABLE IF NOT EXISTS bench_commit_probe (id bigserial PRIMARY KEY, raw bytea)`.execute(db);
  const raw = Buffer.alloc(1000, 1);
  const times: number[] = [];
  for (let i = 0; i < 200; i++) {
    const started = performance.now();
    await sql`INSERT INTO bench_commit_probe (raw) VALUES (${raw})`.execute(db);
    times.push(performance.now() - started);
  }
  await sql`DROP TABLE bench_commit_probe`.execute(db);
  return median(times);
}

interface RoundFigures extends ClientFigures {
  /** From the first connect until every message was processed: the last reply (bare), the last recorded batch (Herald). */
  processedSeconds: number;
  /** Parent CPU (user + system) per message, until processed: the server side only; PostgreSQL's own is not in it. */
  cpuMicros: number;
}

async function main(): Promise<void> {
  pinToCoreZero();
  await ensureDatabase(DATABASE_URL);
  const { buildApp } = await import('../src/app.ts');
  const { loadConfig } = await import('../src/config.ts');
  const { buildDeps } = await import('../src/build-deps.ts');
  const { migrate } = await import('../src/db/migrate.ts');
  const { createTeam, addMember, updateTeam, createApiKey } = await import('../src/accounts/index.ts');
  const { getSendingDomain } = await import('../src/domains/index.ts');
  const { returnPathAddress } = await import('../src/emails/return-path.ts');
  const { startInboundSmtp } = await import('../src/services.ts');
  const { createWorkerRunner } = await import('../src/worker.ts');

  const smtpPort = await freePort();
  const config = {
    ...loadConfig({}),
    databaseUrl: DATABASE_URL,
    secret: BENCH_SECRET,
    adminToken: null,
    logLevel: 'silent' as const,
    host: '127.0.0.1',
    smtpPort,
  };
  const deps = await buildDeps(config, { logger: pino({ level: 'silent' }) });
  const { child } = await startPinnedChild<{ ready: true }>(import.meta.filename, ['client']);
  const bare = await startBareServer();
  await migrate(deps.database);
  const herald = await startInboundSmtp({ deps, adminTokenGenerated: false, close: async () => {} });
  const worker = createWorkerRunner(deps);
  try {
    const now = new Date();
    await removeTeams(deps.db, "name = 'bench-smtp-feedback'");
    // This database is the benchmark's own: a run that was killed may have left spooled messages.
    await sql`DELETE FROM inbound_messages`.execute(deps.db);
    const team = await createTeam(deps.db, { name: 'bench-smtp-feedback', plan: 'pro' }, now);
    await updateTeam(deps.db, team.id, { apiRateLimit: 1_000_000_000 }, now);
    const owner = await addMember(deps.db, team.id, { email: `bench-${team.id}@example.test`, role: 'OWNER' }, now);
    const { key } = await createApiKey(deps.db, deps.secrets, team.id, { kind: 'full', memberId: owner.id });
    const app = await buildApp(deps);
    const authorization = `Bearer ${key}`;
    const domainName = `feedback-${team.id}.bench.example.test`;
    const created = await app.inject({
      method: 'POST',
      url: '/api/v1/domains',
      headers: { authorization },
      payload: { name: domainName, region: 'us-east-1' },
    });
    if (created.statusCode !== 200)
      throw new Error(`creating the domain answered ${created.statusCode}: ${created.body}`);
    const domainId = (created.json() as { id: number }).id;
    // No DNS in the benchmark: the domain is marked verified directly, as bench/email-delivery.ts does.
    // Its next DNS check is put off past the run, or the worker's domain-checks queue would fail it.
    const tomorrow = new Date(now.getTime() + 24 * 3600_000);
    await deps.db
      .updateTable('domains')
      .set({ status: 'SUCCESS', verified_at: now, is_verifying: false, next_check_at: tomorrow })
      .where('id', '=', domainId)
      .execute();
    const domain = (await getSendingDomain(deps.db, deps.secrets, team.id, domainName))!;

    /** Every round's emails, seeded before any timing: EMAILS per round, each with its own recipient. */
    const seeded: SmtpMessage[][] = [];
    for (let round = 0; round < ROUNDS; round++) {
      await sql`DELETE FROM team_daily_usage WHERE team_id = ${team.id}`.execute(deps.db);
      const messages: SmtpMessage[] = [];
      for (let start = 0; start < DSNS; start += SEED_BATCH) {
        const tos = Array.from({ length: Math.min(SEED_BATCH, DSNS - start) }, (_, i) => recipient(round, start + i));
        const payload = tos.map((to) => ({
          from: `Herald Bench <bench@${domainName}>`,
          to,
          subject: 'Your weekly summary',
          text: 'Here is your week.',
        }));
        const response = await app.inject({
          method: 'POST',
          url: '/api/v1/emails/batch',
          headers: { authorization },
          payload,
        });
        if (response.statusCode !== 200) throw new Error(`seeding answered ${response.statusCode}: ${response.body}`);
        const ids = (response.json() as { data: { emailId: string }[] }).data.map((d) => d.emailId);
        ids.forEach((id, i) =>
          messages.push(dsnFor(returnPathAddress(id, domain.returnPath, deps.secrets), tos[i]!, id, config.mailDomain)),
        );
      }
      seeded.push(messages);
    }
    // As the worker would have left them: SENT, and no longer claimable.
    await sql`UPDATE emails SET status = 'SENT' WHERE team_id = ${team.id}`.execute(deps.db);
    // Statistics for the rows just seeded, as autovacuum would have them in service (and as the other
    // benchmarks do): without them (autovacuum off on the bench server) the planner joined each
    // email's recipients through the team's whole primary-key range, ~0.2 ms per email.
    await sql`VACUUM ANALYZE emails, email_recipients, email_events, suppressions`.execute(deps.db);
    await app.close();
    // Started once the emails are SENT: its delivery queue has nothing to take.
    await worker.start();

    /** `processed`: resolves once the server has acted on every message the client got a 250 for. */
    const timed = async (
      port: number,
      messages: SmtpMessage[],
      processed: () => Promise<void>,
    ): Promise<RoundFigures> => {
      const cpu = process.cpuUsage();
      const figures = await runClient(child, port, messages);
      await processed();
      const processedSeconds = (performance.timeOrigin + performance.now() - figures.startedAt) / 1000;
      const used = process.cpuUsage(cpu);
      return { ...figures, processedSeconds, cpuMicros: (used.user + used.system) / messages.length };
    };

    const commitMs = await commitLatencyMs(deps.db);
    const rounds: { bare: RoundFigures[]; herald: RoundFigures[] } = { bare: [], herald: [] };
    const verified: { bounced: number; suppressed: number; spooled: number }[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      // The bare server has processed a message when it answered 250 (it drops it).
      rounds.bare.push(await timed(bare.port, seeded[round]!, async () => {}));
      rounds.herald.push(await timed(smtpPort, seeded[round]!, () => herald.drained()));
      // Afterwards, off the clock: every email of the round BOUNCED, every recipient suppressed.
      const pattern = `fb-${round}-%`;
      const bounced = await sql<{ n: string }>`
        SELECT count(*) AS n FROM emails e JOIN email_recipients r ON r.team_id = e.team_id AND r.email_id = e.id
        WHERE e.team_id = ${team.id} AND e.status = 'BOUNCED' AND r.address LIKE ${pattern}`.execute(deps.db);
      const suppressed = await sql<{ n: string }>`
        SELECT count(*) AS n FROM suppressions WHERE team_id = ${team.id} AND reason = 'HARD_BOUNCE' AND email LIKE ${pattern}`.execute(
        deps.db,
      );
      const spooled = await sql<{ n: string }>`SELECT count(*) AS n FROM inbound_messages`.execute(deps.db);
      verified.push({
        bounced: Number(bounced.rows[0]!.n),
        suppressed: Number(suppressed.rows[0]!.n),
        spooled: Number(spooled.rows[0]!.n),
      });
    }

    const all = [...rounds.bare, ...rounds.herald];
    const refused = all.reduce((sum, r) => sum + r.refused, 0);
    const bareSeconds = median(rounds.bare.map((r) => r.processedSeconds));
    const heraldSeconds = median(rounds.herald.map((r) => r.processedSeconds));
    const heraldAnswered = median(rounds.herald.map((r) => r.seconds));
    const perSecond = (seconds: number) => Math.round(DSNS / seconds).toLocaleString('en-US');
    const cpu = (list: RoundFigures[]) => median(list.map((r) => r.cpuMicros)).toFixed(0);
    const ratio = bareSeconds / heraldSeconds;
    const complete =
      verified.every((v) => v.bounced === DSNS && v.suppressed === DSNS && v.spooled === 0) && refused === 0;
    const body = [
      '## SMTP feedback (inbound listener)',
      '',
      `\`npm exec -- node bench/smtp-feedback.ts\`: ${DSNS.toLocaleString('en-US')} RFC 3464 DSNs (Action failed, Status 5.1.1, ~${(seeded[0]![0]!.data.length / 1024).toFixed(1)} KB each) per round, each addressed to the signed return path of a real SENT email, ` +
        `sent by a raw-socket client using PIPELINING (MAIL+RCPT+DATA in one write, the body and the next envelope in the next) over ${CONNECTIONS} parallel connections, reconnecting every ${MESSAGES_PER_CONNECTION} messages (the listener's per-connection limit), each connection from its own 127.10.x.y address (the listener admits 60 connections a minute per address); ` +
        `timed from the client's first connect until every DSN was processed: for the bare server its last 250, for Herald its last recorded batch (the time to Herald's last 250 is shown apart); median of ${ROUNDS} alternating rounds. ` +
        `Herald: as \`herald start\` runs it: startInboundSmtp (RCPT TO checked by HMAC; each 250 sent after the commit of the message's row in the spool, messages arriving together sharing one INSERT; then the listener itself parses each DSN, matches its email and records the BOUNCED event and the suppression, many DSNs to a transaction (a batch every 50 ms while they keep coming), deleting their spool rows in it) and the worker runner, whose inbound-messages queue would take what the listener did not finish (nothing: the spool is checked empty after each round); on PostgreSQL over loopback, where a one-row INSERT and its COMMIT took ${commitMs.toFixed(2)} ms (median of 200, alone, measured in this run): the floor of each 250's wait. ` +
        `Baseline: a bare smtp-server with the same options (no AUTH or STARTTLS, SIZE ${MAX_MESSAGE_BYTES / 1024 / 1024} MiB) that reads each message, drops it and answers 250. ` +
        `The emails were seeded through POST /api/v1/emails/batch and then set SENT directly in the database (no delivery worker). ` +
        `Servers in one process pinned to core 0, client in a child pinned to core 1. ${machineLine()}.`,
      '',
      '| target | seconds to processed (median) | DSNs processed/s | server CPU µs per DSN (median) |',
      '|---|---:|---:|---:|',
      `| bare smtp-server, read and discard (baseline) | ${bareSeconds.toFixed(2)} | ${perSecond(bareSeconds)} | ${cpu(rounds.bare)} |`,
      `| Herald listener: spool, then its own processing | ${heraldSeconds.toFixed(2)} | ${perSecond(heraldSeconds)} | ${cpu(rounds.herald)} |`,
      '',
      `Herald's last 250 came ${heraldAnswered.toFixed(2)} s after the first connect (median): ${perSecond(heraldAnswered)} DSNs/s accepted into the spool.`,
      '',
      `Throughput ratio: **${(ratio * 100).toFixed(0)}%** of the bare server (target: at least 50%, ${ratio >= 0.5 ? 'met' : '**not met**'}). ` +
        `Checked after each Herald round: ${verified.map((v) => `${v.bounced}/${DSNS} emails BOUNCED, ${v.suppressed}/${DSNS} addresses suppressed, ${v.spooled} left in the spool`).join('; ')}; ${refused} messages answered other than 250.`,
    ].join('\n');
    console.log(body);
    writeSection('smtp-feedback', body);
    if (!complete) process.exitCode = 1;
    await removeTeams(deps.db, 'id = $1', [team.id]);
  } finally {
    child.kill('SIGKILL');
    await herald.stop();
    await worker.stop();
    await bare.stop();
    await deps.close();
  }
}

if (process.argv[2] === 'client') clientMain('127.10');
else await main();
