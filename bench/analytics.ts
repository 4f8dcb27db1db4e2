// Email analytics on a large team, on PostgreSQL: 5,000,000 emails over 90 days on 5 domains with
// their events, and the two analytics reads (reputation-metrics, the 30-day email-time-series)
// through the real app (app.inject: routing, key lookup, access policy, rate limit, query, response
// schema). Baseline in the same run: a route of the same app with the same access that runs
// `SELECT 1`, so the figures differ by the analytics work alone. Then what the counters' trigger
// (0010_analytics.sql) costs the two write paths that insert events, against no trigger and against a
// row-level trigger with a WHEN clause doing the same counting.
// Run: npm exec -- node bench/analytics.ts   (ANALYTICS_BENCH_DATABASE_URL to choose the database;
// by default herald_bench_analytics next to BENCH_DATABASE_URL)
//
// Data: set-based SQL in one transaction, raw inserts with session_replication_role = replica (no
// triggers, no foreign-key checks), then the analytics area's backfill statement builds the counters.
// The team named DATA_MARK exists only when that transaction committed, and is reused by later runs.
import { sql, type Kysely } from 'kysely';
import pino from 'pino';
import { loadConfig } from '../src/config.ts';
import type { Database } from '../src/db/schema.ts';
import { migrate } from '../src/db/migrate.ts';
import { backfillDailyStats } from '../src/analytics/daily-stats-backfill-queries.ts';
import { buildDeps } from '../src/build-deps.ts';
import { ManualClock } from '../src/platform/clock.ts';
import { createTeam } from '../src/accounts/index.ts';
import { BENCH_DATABASE_URL, ensureDatabase } from './database.ts';
import { median, percentile } from './measure.ts';
import { readBenchApp, timeInTurn } from './read-app.ts';
import { removeTeams } from './remove-teams.ts';
import { machineLine, writeSection } from './results.ts';
import { BENCH_SECRET } from './herald-app.ts';

const DATABASE_URL =
  process.env.ANALYTICS_BENCH_DATABASE_URL ?? BENCH_DATABASE_URL.replace(/\/[^/]*$/, '/herald_bench_analytics');
const DATA_MARK = 'bench-analytics v1';
const EMAILS = 5_000_000;
const DOMAINS = 5;
const DAYS = 90;
const WARM_UP = 10;
const RUNS = Number(process.env.BENCH_RUNS ?? 100);
const TARGET_MS = 50;

type Db = Kysely<Database>;

async function generateData(db: Db): Promise<{ teamId: number; now: Date; seconds: number; events: number }> {
  const started = performance.now();
  await removeTeams(db, 'name = $1', [DATA_MARK]);
  const now = new Date();
  const { teamId, events } = await db.transaction().execute(async (tx) => {
    const team = await createTeam(tx, { name: DATA_MARK, plan: 'pro' }, now);
    await sql`SELECT setseed(0.17)`.execute(tx);
    await sql`INSERT INTO domains (team_id, name, region, status, dkim_selector, dkim_public_key, dkim_private_key, return_path, verified_at, next_check_at)
      SELECT ${team.id}::int, 'd' || g || '.bench.example.test', 'us-east-1', 'SUCCESS', 'bench', 'none', 'none', 'bounces.d' || g || '.bench.example.test', ${now}::timestamptz, ${now}::timestamptz + interval '1 day'
      FROM generate_series(1, ${DOMAINS}::int) AS g`.execute(tx);
    await sql`SET LOCAL session_replication_role = replica`.execute(tx);
    // Domains weighted 40/25/15/12/8%; sent over the last DAYS days.
    await sql`CREATE TEMP TABLE bench_mail ON COMMIT DROP AS
      SELECT g, 'em_ba' || lpad(g::text, 8, '0') AS id, ${now}::timestamptz - random() * (${DAYS}::int * interval '1 day') AS sent_at,
             (SELECT array_agg(id ORDER BY id) FROM domains WHERE team_id = ${team.id}::int)[CASE WHEN r < 0.40 THEN 1 WHEN r < 0.65 THEN 2 WHEN r < 0.80 THEN 3 WHEN r < 0.92 THEN 4 ELSE 5 END] AS domain_id,
             random() AS fate, random() AS open, random() AS click
      FROM (SELECT g, random() AS r FROM generate_series(1, ${EMAILS}::int) AS g) AS x`.execute(tx);
    await sql`INSERT INTO emails (id, team_id, domain_id, "from", "to", subject, status, run_at, created_at, updated_at)
      SELECT id, ${team.id}::int, domain_id, 'news@bench.example.test', '"r@example.test"', 'Bench', 'SENT', sent_at, sent_at, sent_at FROM bench_mail`.execute(
      tx,
    );
    // Half relay (SENT, then a DELIVERED report for most), half direct (DELIVERED only); 3% bounce
    // (a third of those with two BOUNCED events, one per recipient); 35% opened, 10% opened twice;
    // 8% clicked; 0.1% complained.
    const inserted = await sql`INSERT INTO email_events (team_id, email_id, status, created_at)
      SELECT ${team.id}::int, m.id, ev.status, least(m.sent_at + ev.after, ${now}::timestamptz)
      FROM bench_mail AS m
      CROSS JOIN LATERAL (VALUES
        ('QUEUED', interval '0', true),
        ('SENT', interval '2 seconds', m.g % 2 = 0 AND m.fate >= 0.03),
        ('DELIVERED', interval '30 seconds', m.fate >= 0.03 AND (m.g % 2 = 1 OR m.fate >= 0.2)),
        ('BOUNCED', interval '30 seconds', m.fate < 0.03),
        ('BOUNCED', interval '31 seconds', m.fate < 0.01),
        ('OPENED', m.open * interval '2 days', m.fate >= 0.03 AND m.open < 0.35),
        ('OPENED', m.open * interval '2 days' + interval '3 hours', m.fate >= 0.03 AND m.open < 0.10),
        ('CLICKED', m.open * interval '2 days' + interval '1 minute', m.fate >= 0.03 AND m.click < 0.08 AND m.open < 0.35),
        ('COMPLAINED', interval '1 day', m.fate >= 0.03 AND m.fate < 0.031)
      ) AS ev (status, after, happened)
      WHERE ev.happened`.execute(tx);
    await sql`SET LOCAL session_replication_role = origin`.execute(tx);
    await sql`SET LOCAL work_mem = '256MB'`.execute(tx);
    await sql`DELETE FROM email_daily_stats`.execute(tx);
    await backfillDailyStats(tx);
    return { teamId: team.id, events: Number(inserted.numAffectedRows ?? 0n) };
  });
  await sql`VACUUM ANALYZE emails, email_events, email_daily_stats`.execute(db);
  return { teamId, now, events, seconds: (performance.now() - started) / 1000 };
}

const ms = (value: number) => `${value.toFixed(2)} ms`;

/** The row-level alternative to the shipped statement-level trigger, for the comparison only (dropped after). */
const ROW_VARIANT = `
CREATE OR REPLACE FUNCTION bench_daily_stats_row() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO email_daily_stats AS s (team_id, day, domain_id, shard, sent, delivered, opened, clicked, bounced, hard_bounced, complained)
  SELECT NEW.team_id, (NEW.created_at AT TIME ZONE 'UTC')::date, coalesce(m.domain_id, 0), (pg_backend_pid() % 8)::smallint,
         (NEW.status = 'SENT' OR (NEW.status = 'DELIVERED' AND NOT EXISTS (
           SELECT 1 FROM email_events p WHERE p.email_id = NEW.email_id AND p.id < NEW.id AND p.status = 'SENT')))::int,
         (NEW.status = 'DELIVERED')::int, (NEW.status = 'OPENED')::int, (NEW.status = 'CLICKED')::int,
         (NEW.status = 'BOUNCED')::int, (NEW.status = 'BOUNCED')::int, (NEW.status = 'COMPLAINED')::int
  FROM emails m
  WHERE m.id = NEW.email_id AND m.team_id = NEW.team_id
    AND NOT EXISTS (SELECT 1 FROM email_events p WHERE p.email_id = NEW.email_id AND p.id < NEW.id
                    AND (p.status = NEW.status OR (NEW.status = 'SENT' AND p.status = 'DELIVERED')))
  ON CONFLICT (team_id, day, domain_id, shard) DO UPDATE SET
    sent = s.sent + excluded.sent, delivered = s.delivered + excluded.delivered, opened = s.opened + excluded.opened,
    clicked = s.clicked + excluded.clicked, bounced = s.bounced + excluded.bounced,
    hard_bounced = s.hard_bounced + excluded.hard_bounced, complained = s.complained + excluded.complained;
  RETURN NULL;
END
$$;
DROP TRIGGER IF EXISTS bench_daily_stats_row ON email_events;
CREATE TRIGGER bench_daily_stats_row AFTER INSERT ON email_events FOR EACH ROW
  WHEN (NEW.status IN ('SENT', 'DELIVERED', 'OPENED', 'CLICKED', 'BOUNCED', 'COMPLAINED')) EXECUTE FUNCTION bench_daily_stats_row();`;

type Variant = 'none' | 'statement' | 'row';
const VARIANTS: Variant[] = ['none', 'statement', 'row'];
const COST_ROUNDS = 7;
const DELIVERY_WRITES = 500;
const SEND_STATEMENTS = 50;
const SEND_BATCH = 64;

/**
 * Per-statement time of the two event-writing shapes, each in its own transaction (committed): a
 * delivery write (one email's first SENT, counted) and a send-path write (64 QUEUED events, counted
 * by nobody). Fresh emails of a scratch team for every variant and round.
 */
async function triggerCost(
  db: Db,
  execScript: (script: string) => Promise<void>,
  now: Date,
): Promise<Record<Variant, { delivery: number[]; send: number[] }>> {
  const scratch = await createTeam(db, { name: 'bench-analytics scratch', plan: 'pro' }, now);
  const perRound = DELIVERY_WRITES + SEND_STATEMENTS * SEND_BATCH;
  const total = perRound * VARIANTS.length * COST_ROUNDS;
  await sql`INSERT INTO emails (id, team_id, "from", subject, status, run_at, created_at, updated_at)
    SELECT 'em_bs' || g, ${scratch.id}::int, 'x@bench.example.test', 'x', 'QUEUED', ${now}::timestamptz, ${now}::timestamptz, ${now}::timestamptz
    FROM generate_series(1, ${total}::int) AS g`.execute(db);
  await execScript(ROW_VARIANT);
  const use = async (variant: Variant) => {
    await sql
      .raw(
        `ALTER TABLE email_events ${variant === 'statement' ? 'ENABLE' : 'DISABLE'} TRIGGER email_events_daily_stats`,
      )
      .execute(db);
    await sql
      .raw(`ALTER TABLE email_events ${variant === 'row' ? 'ENABLE' : 'DISABLE'} TRIGGER bench_daily_stats_row`)
      .execute(db);
  };
  const figures = Object.fromEntries(
    VARIANTS.map((v) => [v, { delivery: [] as number[], send: [] as number[] }]),
  ) as Record<Variant, { delivery: number[]; send: number[] }>;
  let next = 1;
  try {
    for (let round = 0; round < COST_ROUNDS; round++) {
      for (const variant of VARIANTS) {
        await use(variant);
        let started = performance.now();
        for (let i = 0; i < DELIVERY_WRITES; i++) {
          await sql`INSERT INTO email_events (team_id, email_id, status, created_at) VALUES (${scratch.id}::int, ${`em_bs${next++}`}, 'SENT', ${now}::timestamptz)`.execute(
            db,
          );
        }
        figures[variant].delivery.push(((performance.now() - started) * 1000) / DELIVERY_WRITES);
        started = performance.now();
        for (let i = 0; i < SEND_STATEMENTS; i++) {
          const ids = Array.from({ length: SEND_BATCH }, () => `em_bs${next++}`);
          await sql`INSERT INTO email_events (team_id, email_id, status, created_at) SELECT ${scratch.id}::int, id, 'QUEUED', ${now}::timestamptz FROM unnest(${ids}::text[]) AS id`.execute(
            db,
          );
        }
        figures[variant].send.push(((performance.now() - started) * 1000) / SEND_STATEMENTS);
      }
    }
  } finally {
    await use('statement');
    await sql`DROP TRIGGER IF EXISTS bench_daily_stats_row ON email_events`.execute(db);
    await sql`DROP FUNCTION IF EXISTS bench_daily_stats_row()`.execute(db);
    await removeTeams(db, 'id = $1', [scratch.id]);
  }
  return figures;
}

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
  const data = found
    ? { teamId: found.id, now: found.created_at, seconds: null, events: null }
    : await generateData(db);
  // Reads at the data's own "now", so every run reads the same 30 days.
  clock.set(data.now);
  const emailCount = Number(
    (await sql<{ n: string }>`SELECT count(*) AS n FROM emails WHERE team_id = ${data.teamId}::int`.execute(db))
      .rows[0]!.n,
  );
  if (emailCount !== EMAILS) throw new Error(`expected ${EMAILS} emails, found ${emailCount}`);
  const statRows = Number(
    (
      await sql<{ n: string }>`SELECT count(*) AS n FROM email_daily_stats WHERE team_id = ${data.teamId}::int`.execute(
        db,
      )
    ).rows[0]!.n,
  );
  const { app, get } = await readBenchApp(deps, data.teamId, data.now, 'full');
  const targets = {
    baseline: get('/bench/select-1'),
    reputation: get('/v1/analytics/reputation-metrics'),
    series: get('/v1/analytics/email-time-series?days=30'),
    seriesDomain: get(
      `/v1/analytics/email-time-series?days=30&domainId=${(await db.selectFrom('domains').select('id').where('team_id', '=', data.teamId).orderBy('id').executeTakeFirstOrThrow()).id}`,
    ),
  };
  const times = await timeInTurn(targets, { warmUp: WARM_UP, runs: RUNS });
  const series = (await targets.series()).json() as { result: unknown[]; totalCounts: Record<string, number> };
  const reputation = (await targets.reputation()).json() as Record<string, number>;
  if (series.result.length !== 30) throw new Error('the time series did not answer 30 days');
  await app.close();

  const cost = await triggerCost(db, (script) => deps.database.execScript(script), data.now);
  const us = (values: number[]) => `${median(values).toFixed(0)} µs`;

  const row = (label: string, values: number[]) =>
    `| ${label} | ${ms(median(values))} | ${ms(percentile(values, 0.95))} |`;
  const worst = Math.max(
    median(times.reputation),
    median(times.series),
    percentile(times.reputation, 0.95),
    percentile(times.series, 0.95),
  );
  const body = [
    '## Analytics (analytics)',
    '',
    `\`npm exec -- node bench/analytics.ts\`: one team with ${EMAILS.toLocaleString('en-US')} emails over ${DAYS} days on ${DOMAINS} domains and their events (half relayed: SENT then DELIVERED for most; half delivered directly: DELIVERED only; 3% bounced, a third of those with two BOUNCED events; 35% opened, 10% twice; 8% clicked; 0.1% complained${data.events === null ? '' : `; ${data.events.toLocaleString('en-US')} events`}), inserted by set-based SQL without triggers and counted into \`email_daily_stats\` by the analytics area's backfill statement (\`src/analytics/daily-stats-backfill-queries.ts\`; ${statRows.toLocaleString('en-US')} counter rows for the team)${data.seconds === null ? ', kept from an earlier run' : `, generated in ${data.seconds.toFixed(0)} s`}. Requests through the real app in process (\`app.inject\`: key lookup, access policy, rate limit, query, response schema), ${WARM_UP} warm-up rounds then ${RUNS} rounds each requesting every target in turn. Baseline: a route of the same app with the same access running \`SELECT 1\`. PostgreSQL 15 on loopback, database \`${new URL(DATABASE_URL).pathname.slice(1)}\`. ${machineLine()}.`,
    '',
    '| request | median | p95 |',
    '|---|---:|---:|',
    row('`SELECT 1` behind a FULL route (baseline)', times.baseline),
    row('GET /v1/analytics/reputation-metrics (all time)', times.reputation),
    row('GET /v1/analytics/email-time-series?days=30', times.series),
    row('GET /v1/analytics/email-time-series?days=30&domainId=…', times.seriesDomain),
    '',
    `Target: under ${TARGET_MS} ms each, ${worst < TARGET_MS ? 'met' : '**not met**'}. Answers: reputation ${JSON.stringify(reputation)}; 30-day totals ${JSON.stringify(series.totalCounts)}.`,
    '',
    `What the counters' trigger costs the writes of events (median of ${COST_ROUNDS} alternating rounds; each statement its own committed transaction on fresh emails): a delivery-shaped write is one statement inserting one email's first SENT event (counted, ${DELIVERY_WRITES.toLocaleString('en-US')} per round); a send-shaped write inserts ${SEND_BATCH} QUEUED events in one statement (counted by nobody, ${SEND_STATEMENTS} per round). "row" is a row-level trigger with \`WHEN (status IN counted kinds)\` doing the same counting, measured for the choice only.`,
    '',
    '| trigger | delivery write (1 SENT) | send write (64 QUEUED) |',
    '|---|---:|---:|',
    ...VARIANTS.map(
      (v) =>
        `| ${v === 'none' ? 'none (baseline)' : v === 'statement' ? 'statement-level, transition table (shipped)' : 'row-level with WHEN'} | ${us(cost[v].delivery)} | ${us(cost[v].send)} |`,
    ),
  ].join('\n');
  console.log(body);
  writeSection('analytics', body);
} finally {
  await deps.close();
}
