// Billing reads on a large team, on PostgreSQL: 1,000,000 wallet ledger rows over two years (SMS
// charges and releases, a top-up with a receipt every 1,000 rows) and 5,000,000 emails over 90 days
// with the per-day counters the send path keeps. The transactions read (first page, and a page
// filtered by type) and the usage read go through the real app (app.inject: key lookup, access
// policy, per-minute billing limit, read deadline, query, response schema, audit log row). Baseline
// in the same run: a route of the same app with the same access (billingRead) running `SELECT 1`.
// Run: npm exec -- node bench/billing-reads.ts   (BILLING_BENCH_DATABASE_URL to choose the database;
// by default herald_bench_billing next to BENCH_DATABASE_URL)
//
// Data: set-based SQL (INSERT … SELECT generate_series) in one transaction, without triggers; the
// team named DATA_MARK exists only when that transaction committed, and is reused by later runs.
import { sql, type Kysely } from 'kysely';
import pino from 'pino';
import { loadConfig } from '../src/config.ts';
import type { Database } from '../src/db/schema.ts';
import { migrate } from '../src/db/migrate.ts';
import { buildDeps } from '../src/build-deps.ts';
import { ManualClock } from '../src/platform/clock.ts';
import { createTeam } from '../src/accounts/index.ts';
import { BENCH_DATABASE_URL, ensureDatabase } from './database.ts';
import { BENCH_SECRET } from './herald-app.ts';
import { median, percentile } from './measure.ts';
import { readBenchApp, timeInTurn } from './read-app.ts';
import { removeTeams } from './remove-teams.ts';
import { machineLine, writeSection } from './results.ts';

const DATABASE_URL =
  process.env.BILLING_BENCH_DATABASE_URL ?? BENCH_DATABASE_URL.replace(/\/[^/]*$/, '/herald_bench_billing');
const DATA_MARK = 'bench-billing v1';
const LEDGER_ROWS = 1_000_000;
const LEDGER_DAYS = 730;
const EMAILS = 5_000_000;
const EMAIL_DAYS = 90;
const WARM_UP = 10;
const RUNS = Number(process.env.BENCH_RUNS ?? 100);
const TARGET_MS = 20;

type Db = Kysely<Database>;

async function generateData(db: Db): Promise<{ teamId: number; now: Date; seconds: number }> {
  const started = performance.now();
  await removeTeams(db, 'name = $1', [DATA_MARK]);
  const now = new Date();
  const teamId = await db.transaction().execute(async (tx) => {
    const team = await createTeam(tx, { name: DATA_MARK, plan: 'pro' }, now);
    await sql`INSERT INTO domains (team_id, name, region, status, dkim_selector, dkim_public_key, dkim_private_key, return_path, verified_at, next_check_at)
      VALUES (${team.id}::int, 'billing.bench.example.test', 'us-east-1', 'SUCCESS', 'bench', 'none', 'none', 'bounces.billing.bench.example.test', ${now}::timestamptz, ${now}::timestamptz + interval '1 day')`.execute(
      tx,
    );
    await sql`SET LOCAL session_replication_role = replica`.execute(tx);
    // Row g at an even step over LEDGER_DAYS ending now; every 1,000th a top-up of $10,000 with a
    // receipt, every 10th a release of the charge before it, the rest SMS charges of one cent.
    await sql`CREATE TEMP TABLE bench_ledger ON COMMIT DROP AS
      SELECT g,
        CASE WHEN g % 1000 = 1 THEN 'TOP_UP' WHEN g % 10 = 0 THEN 'SMS_RELEASE' ELSE 'SMS_CHARGE' END AS type,
        CASE WHEN g % 1000 = 1 THEN 1000000 WHEN g % 10 = 0 THEN 1 ELSE -1 END AS amount,
        ${now}::timestamptz - (${LEDGER_ROWS}::int - g) * (${LEDGER_DAYS}::int * interval '1 day' / ${LEDGER_ROWS}::int) AS at
      FROM generate_series(1, ${LEDGER_ROWS}::int) AS g`.execute(tx);
    await sql`INSERT INTO wallets (team_id, currency, balance, last_seq, created_at, updated_at)
      SELECT ${team.id}::int, 'USD', SUM(amount), ${LEDGER_ROWS}::int, min(at), max(at) FROM bench_ledger`.execute(tx);
    await sql`INSERT INTO wallet_transactions (id, team_id, seq, type, amount, balance_after, currency, reference, receipt_reference, description, reverses_id, created_at)
      SELECT 'wtx_bb' || lpad(g::text, 8, '0'), ${team.id}::int, g, type, amount,
        SUM(amount) OVER (ORDER BY g), 'USD',
        CASE WHEN type = 'TOP_UP' THEN 'topup-' || g ELSE 'sms_bb' || lpad((CASE WHEN type = 'SMS_RELEASE' THEN g - 1 ELSE g END)::text, 8, '0') END,
        CASE WHEN type = 'TOP_UP' THEN 'RCT-BB' || lpad(g::text, 10, '0') END,
        CASE WHEN type = 'TOP_UP' THEN 'Bench top-up' ELSE NULL END,
        CASE WHEN type = 'SMS_RELEASE' THEN 'wtx_bb' || lpad((g - 1)::text, 8, '0') END,
        at
      FROM bench_ledger`.execute(tx);
    // 5,000,000 emails over the last EMAIL_DAYS days, and the per-day counters the send path keeps.
    await sql`INSERT INTO emails (id, team_id, domain_id, "from", "to", subject, status, run_at, created_at, updated_at)
      SELECT 'em_bb' || lpad(g::text, 8, '0'), ${team.id}::int, (SELECT id FROM domains WHERE team_id = ${team.id}::int),
        'news@billing.bench.example.test', '"r@example.test"', 'Bench', 'SENT', at, at, at
      FROM (SELECT g, ${now}::timestamptz - (${EMAILS}::int - g) * (${EMAIL_DAYS}::int * interval '1 day' / ${EMAILS}::int) AS at
            FROM generate_series(1, ${EMAILS}::int) AS g) AS m`.execute(tx);
    await sql`INSERT INTO team_daily_usage (team_id, day, transactional, marketing)
      SELECT ${team.id}::int, (created_at AT TIME ZONE 'UTC')::date, count(*) FILTER (WHERE g % 5 <> 0), count(*) FILTER (WHERE g % 5 = 0)
      FROM (SELECT created_at, substr(id, 6)::int AS g FROM emails WHERE team_id = ${team.id}::int) AS e
      GROUP BY 2`.execute(tx);
    await sql`SET LOCAL session_replication_role = origin`.execute(tx);
    return team.id;
  });
  await sql`VACUUM ANALYZE wallet_transactions, wallets, emails, team_daily_usage`.execute(db);
  return { teamId, now, seconds: (performance.now() - started) / 1000 };
}

const ms = (value: number) => `${value.toFixed(2)} ms`;

await ensureDatabase(DATABASE_URL);
const config = {
  ...loadConfig({}),
  databaseUrl: DATABASE_URL,
  secret: BENCH_SECRET,
  adminToken: null,
  logLevel: 'silent' as const,
};
const clock = new ManualClock();
const deps = await buildDeps(config, { logger: pino({ level: 'silent' }), clock });
try {
  await migrate(deps.database);
  const { db } = deps;
  const found = await db
    .selectFrom('teams')
    .select(['id', 'created_at'])
    .where('name', '=', DATA_MARK)
    .executeTakeFirst();
  const data = found ? { teamId: found.id, now: found.created_at, seconds: null } : await generateData(db);
  clock.set(data.now);
  const counts = (
    await sql<{ ledger: string; emails: string }>`SELECT
      (SELECT count(*) FROM wallet_transactions WHERE team_id = ${data.teamId}::int) AS ledger,
      (SELECT count(*) FROM emails WHERE team_id = ${data.teamId}::int) AS emails`.execute(db)
  ).rows[0]!;
  if (Number(counts.ledger) !== LEDGER_ROWS || Number(counts.emails) !== EMAILS) {
    throw new Error(`expected ${LEDGER_ROWS} ledger rows and ${EMAILS} emails, found ${JSON.stringify(counts)}`);
  }
  // Made by the owner: the usage read includes the text spend (the costlier answer).
  const { app, get } = await readBenchApp(deps, data.teamId, data.now, 'billingRead');
  const targets = {
    baseline: get('/bench/select-1'),
    transactions: get('/v1/billing/transactions'),
    transactionsTyped: get('/v1/billing/transactions?type=TOP_UP&limit=100'),
    usage: get('/v1/billing/usage'),
  };
  // Three billing reads a round: the clock moves a minute every round, so the 60-a-minute limit
  // (which runs on every read) never refuses one.
  const times = await timeInTurn(targets, { warmUp: WARM_UP, runs: RUNS, afterRound: () => clock.advance(60_000) });
  const usage = (await targets.usage()).json() as { emails: Record<string, number>; thisMonth: unknown };
  await app.close();

  const row = (label: string, values: number[]) =>
    `| ${label} | ${ms(median(values))} | ${ms(percentile(values, 0.95))} |`;
  const worst = Math.max(median(times.transactions), median(times.usage));
  const body = [
    '## Billing reads (billing)',
    '',
    `\`npm exec -- node bench/billing-reads.ts\`: one Pro team with ${LEDGER_ROWS.toLocaleString('en-US')} wallet ledger rows over ${LEDGER_DAYS} days (SMS charges of one cent, every 10th released, a $10,000 top-up with a receipt every 1,000 rows) and ${EMAILS.toLocaleString('en-US')} emails over ${EMAIL_DAYS} days with their per-day counters, inserted by set-based SQL${data.seconds === null ? ', kept from an earlier run' : `, generated in ${data.seconds.toFixed(0)} s`}. Requests through the real app in process (\`app.inject\`: key lookup, access policy, the per-minute billing limit, the read deadline's transaction, query, response schema, then an audit log row), ${WARM_UP} warm-up rounds then ${RUNS} rounds each requesting every target in turn. Key: full access, made by the owner (the usage read sums this month's text spend). Baseline: a route of the same app with the same access (\`billingRead\`) running \`SELECT 1\`. PostgreSQL 15 on loopback, database \`${new URL(DATABASE_URL).pathname.slice(1)}\`; the machine is shared with other work while it runs. ${machineLine()}.`,
    '',
    '| request | median | p95 |',
    '|---|---:|---:|',
    row('`SELECT 1` behind a billingRead route (baseline)', times.baseline),
    row('GET /v1/billing/transactions (first page of 20)', times.transactions),
    row('GET /v1/billing/transactions?type=TOP_UP&limit=100', times.transactionsTyped),
    row('GET /v1/billing/usage', times.usage),
    '',
    `Target: median under ${TARGET_MS} ms for transactions and usage, ${worst < TARGET_MS ? 'met' : '**not met**'}. Usage answered emails ${JSON.stringify(usage.emails)}, thisMonth ${JSON.stringify(usage.thisMonth)}.`,
  ].join('\n');
  console.log(body);
  writeSection('billing', body);
} finally {
  await deps.close();
}
