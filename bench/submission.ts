// SMTP submission: messages per second from a pipelining client over 4 STARTTLS connections (AUTH
// with an API key), each answered 250 only once its email is stored QUEUED, beside a bare
// smtp-server with the same TLS and AUTH that parses each message with mailparser and does nothing
// else, in the same run. Target: at least 50% of the bare server.
// Run: npm exec -- node bench/submission.ts   (PostgreSQL: BENCH_DATABASE_URL's server, database
// herald_bench_submission; BENCH_SUBMISSIONS, default 2000 messages per round)
//
// Herald is what `herald start` and `herald smtp` run (startSubmissionListener with the process's
// deps: the principal cache, the rate limiter, sendEmails' group commit over queueEmails). The client
// is a raw-socket SMTP client in a child pinned to core 1: STARTTLS, AUTH PLAIN, then PIPELINING
// (RFC 2920: MAIL+RCPT+DATA in one write, the body and the next envelope in the next); both servers
// run in the parent pinned to core 0, in alternating rounds, and the medians are kept.
import os from 'node:os';
import { sql, type Kysely } from 'kysely';
import pino from 'pino';
import type { Database } from '../src/db/schema.ts';
import { BENCH_DATABASE_URL, ensureDatabase } from './database.ts';
import { BENCH_SECRET } from './herald-app.ts';
import { median, pinToCoreZero, startPinnedChild } from './measure.ts';
import { machineLine, verdict, writeSection } from './results.ts';
import { removeTeams } from './remove-teams.ts';
import { startBareServer } from './submission/bare-server.ts';
import {
  clientMain,
  CONNECTIONS,
  messageOf,
  type ClientFigures,
  type Message,
  type ToClient,
} from './submission/client.ts';

const MESSAGES = Number(process.env.BENCH_SUBMISSIONS ?? 2000);
const ROUNDS = 3;
const DATABASE_URL = (() => {
  const url = new URL(BENCH_DATABASE_URL);
  url.pathname = '/herald_bench_submission';
  return url.toString();
})();

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
  /** Parent CPU (user + system) per message: the server side only; PostgreSQL's own is not in it. */
  cpuMicros: number;
}

async function main(): Promise<void> {
  pinToCoreZero();
  await ensureDatabase(DATABASE_URL);
  const { loadConfig } = await import('../src/config.ts');
  const { buildDeps } = await import('../src/build-deps.ts');
  const { migrate } = await import('../src/db/migrate.ts');
  const { createTeam, addMember, updateTeam, createApiKey } = await import('../src/accounts/index.ts');
  const { buildApp } = await import('../src/app.ts');
  const { submissionBatching } = await import('../src/submission/start.ts');
  const { AuthLockout } = await import('../src/submission/auth-lockout.ts');
  const { startSubmissionListener } = await import('../src/submission/listener.ts');
  const { selfSignedCertificate } = await import('../src/submission/self-signed.ts');

  const config = {
    ...loadConfig({}),
    databaseUrl: DATABASE_URL,
    secret: BENCH_SECRET,
    adminToken: null,
    logLevel: 'silent' as const,
    host: '127.0.0.1',
  };
  const deps = await buildDeps(config, { logger: pino({ level: 'silent' }) });
  const certificate = selfSignedCertificate(['localhost', '127.0.0.1'], new Date(), 2);
  const { child } = await startPinnedChild<{ ready: true }>(import.meta.filename, ['client']);
  const bare = await startBareServer(certificate);
  await migrate(deps.database);
  const herald = await startSubmissionListener(
    {
      db: deps.db,
      clock: deps.clock,
      announcer: deps.announcer,
      batching: submissionBatching(deps.db),
      config: { mailDomain: config.mailDomain },
      principals: deps.principals,
      rateLimiter: deps.rateLimiter,
      lockout: new AuthLockout({ secrets: deps.secrets, clock: deps.clock, rateLimiter: deps.rateLimiter }),
      logger: deps.logger,
      metrics: deps.metrics,
    },
    { host: '127.0.0.1', port: 0, tlsPort: null, tls: certificate, hostname: 'submit.bench.example.test' },
  );
  try {
    const now = new Date();
    await removeTeams(deps.db, "name = 'bench-submission'");
    const team = await createTeam(deps.db, { name: 'bench-submission', plan: 'pro' }, now);
    await updateTeam(deps.db, team.id, { apiRateLimit: 1_000_000_000 }, now);
    const owner = await addMember(deps.db, team.id, { email: `bench-${team.id}@example.test`, role: 'OWNER' }, now);
    const { key } = await createApiKey(deps.db, deps.secrets, team.id, { kind: 'sending', memberId: owner.id });
    const full = await createApiKey(deps.db, deps.secrets, team.id, { kind: 'full', memberId: owner.id });
    const domainName = `submission-${team.id}.bench.example.test`;
    const app = await buildApp(deps);
    const created = await app.inject({
      method: 'POST',
      url: '/api/v1/domains',
      headers: { authorization: `Bearer ${full.key}` },
      payload: { name: domainName, region: 'us-east-1' },
    });
    await app.close();
    if (created.statusCode !== 200)
      throw new Error(`creating the domain answered ${created.statusCode}: ${created.body}`);
    // No DNS in the benchmark: the domain is marked verified directly, as bench/smtp-feedback.ts does.
    await deps.db
      .updateTable('domains')
      .set({
        status: 'SUCCESS',
        verified_at: now,
        is_verifying: false,
        next_check_at: new Date(now.getTime() + 86_400_000),
      })
      .where('id', '=', (created.json() as { id: number }).id)
      .execute();

    const from = `orders@${domainName}`;
    const roundMessages = (round: number) =>
      Array.from({ length: MESSAGES }, (_, i) => messageOf(from, `customer-${round}-${i}@example.test`, round, i));
    const timed = async (port: number, messages: Message[]): Promise<RoundFigures> => {
      const cpu = process.cpuUsage();
      const figures = await new Promise<ClientFigures>((resolve) => {
        child.once('message', (f) => resolve(f as ClientFigures));
        child.send({ port, ca: certificate.cert, key, messages } satisfies ToClient);
      });
      const used = process.cpuUsage(cpu);
      return { ...figures, cpuMicros: (used.user + used.system) / messages.length };
    };

    // A warm-up round for each (JIT, the key's cache entry, the pool), not counted.
    const warmUp = Array.from({ length: 200 }, (_, i) => messageOf(from, `warm-${i}@example.test`, 99, i));
    await timed(bare.port, warmUp);
    await timed(herald.port!, warmUp);

    const commitMs = await commitLatencyMs(deps.db);
    const rounds: { bare: RoundFigures[]; herald: RoundFigures[] } = { bare: [], herald: [] };
    const stored: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const messages = roundMessages(round);
      // The pro plan's 50,000 a day: each round starts from an empty day.
      await sql`DELETE FROM team_daily_usage WHERE team_id = ${team.id}`.execute(deps.db);
      rounds.bare.push(await timed(bare.port, messages));
      rounds.herald.push(await timed(herald.port!, messages));
      // Afterwards, off the clock: every message of the round is an email, QUEUED, from SMTP.
      const counted = await sql<{ n: string }>`
        SELECT count(*) AS n FROM emails
        WHERE team_id = ${team.id} AND status = 'QUEUED' AND source = 'smtp' AND subject LIKE ${`Order ${round}-%`}`.execute(
        deps.db,
      );
      stored.push(Number(counted.rows[0]!.n));
    }

    const all = [...rounds.bare, ...rounds.herald];
    const refused = all.reduce((sum, r) => sum + r.refused, 0);
    const firstRefusal = all.find((r) => r.firstRefusal !== null)?.firstRefusal ?? null;
    const bareSeconds = median(rounds.bare.map((r) => r.seconds));
    const heraldSeconds = median(rounds.herald.map((r) => r.seconds));
    const perSecond = (seconds: number) => Math.round(MESSAGES / seconds).toLocaleString('en-US');
    const cpu = (list: RoundFigures[]) => median(list.map((r) => r.cpuMicros)).toFixed(0);
    const ratio = bareSeconds / heraldSeconds;
    const complete = stored.every((n) => n === MESSAGES) && refused === 0;
    const [load1, load5] = os.loadavg();
    /** The share of the round's wall time the server process spent on a CPU (the rest it waited). */
    const busy = (list: RoundFigures[]) =>
      `${Math.round(median(list.map((r) => (r.cpuMicros * MESSAGES) / 1e6 / r.seconds)) * 100)}%`;
    const body = [
      '## SMTP submission',
      '',
      `\`npm exec -- node bench/submission.ts\`: ${MESSAGES.toLocaleString('en-US')} messages per round (text and HTML alternatives, ~${(roundMessages(0)[0]!.data.length / 1024).toFixed(1)} KB each, one recipient each) ` +
        `from a raw-socket client over ${CONNECTIONS} parallel connections, each EHLO, STARTTLS (TLS 1.3, P-256 certificate), EHLO, AUTH PLAIN with a sending key, then PIPELINING (MAIL+RCPT+DATA in one write, the body and the next envelope in the next); ` +
        `timed from the client's first connect until the last 250: Herald answers 250 only once the message's email is committed, QUEUED (checked after each round), so the last 250 is the last email stored. Median of ${ROUNDS} alternating rounds, after a warm-up of 200 messages on each. ` +
        `Herald: startSubmissionListener as \`herald start\` and \`herald smtp\` run it: the key from the principal cache, the team's per-second API limit per message, mailparser, the send body, sendEmails' group commit over queueEmails (verified domain, suppressions, the plan's daily limit under the usage lock, the email, its QUEUED event and recipients), on PostgreSQL over loopback. ` +
        `Baseline: a bare smtp-server with the same certificate, STARTTLS and AUTH (any password), SIZE 20 MiB, that parses each message with mailparser (same options) and answers 250. ` +
        `A one-row INSERT and its COMMIT took ${commitMs.toFixed(2)} ms on this server (median of 200, alone, measured in this run): each 250 waits for at least one such commit, shared by the messages in flight (at most ${CONNECTIONS}: each connection waits for its 250 before its next body). ` +
        `Servers in one process pinned to core 0, client in a child pinned to core 1; PostgreSQL unpinned. Load average ${load1!.toFixed(2)} (1 min), ${load5!.toFixed(2)} (5 min) at the end. ${machineLine()}.`,
      '',
      '| target | seconds to the last 250 (median) | messages/s | server CPU µs per message (median) |',
      '|---|---:|---:|---:|',
      `| bare smtp-server: STARTTLS, AUTH, mailparser (baseline) | ${bareSeconds.toFixed(2)} | ${perSecond(bareSeconds)} | ${cpu(rounds.bare)} |`,
      `| Herald submission: stored QUEUED before each 250 | ${heraldSeconds.toFixed(2)} | ${perSecond(heraldSeconds)} | ${cpu(rounds.herald)} |`,
      '',
      `The server process was on a CPU ${busy(rounds.bare)} of the bare rounds' time and ${busy(rounds.herald)} of Herald's (median); the rest Herald waited for PostgreSQL.`,
      '',
      `Throughput ratio: **${(ratio * 100).toFixed(0)}%** of the bare server (target: at least 50%, ${verdict(ratio >= 0.5)}). ` +
        `Checked after each Herald round: ${stored.map((n) => `${n}/${MESSAGES}`).join(', ')} emails QUEUED with source smtp; ${refused} messages answered other than 250${firstRefusal ? ` (first: ${firstRefusal})` : ''}.`,
    ].join('\n');
    console.log(body);
    writeSection('submission', body);
    if (!complete) process.exitCode = 1;
    await removeTeams(deps.db, 'id = $1', [team.id]);
  } finally {
    child.kill('SIGKILL');
    await herald.stop();
    await bare.stop();
    await deps.close();
  }
}

if (process.argv[2] === 'client') clientMain();
else await main();
