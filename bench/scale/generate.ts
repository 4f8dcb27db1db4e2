// The team's history, by set-based SQL: emails spread evenly over the 12 months before the current
// one and this month so far, each month in its own transaction with triggers and foreign-key checks
// off (session_replication_role = replica), every id made by herald_new_id('em_', created_at) so
// each row lands in its month's partition; three events per email (email_events is partitioned by
// the email's id), one recipient row each, the send quota's daily counters; then the analytics
// counters counted from the events as the analytics area's backfill does, and ANALYZE.
import { sql, type Kysely } from 'kysely';
import { backfillDailyStats } from '../../src/analytics/daily-stats-backfill-queries.ts';
import type { Database } from '../../src/db/schema.ts';
import { count, MONTHS, monthStart } from './setup.ts';

type Db = Kysely<Database>;
const RECIPIENTS = 200_000;
export const EVENTS_PER_EMAIL = 3;

/** About 2 KB of HTML (bench/email-send.ts's body), only in the newest months: retention removed older bodies. */
export const HTML = `<!doctype html><html><body><h1>Your weekly summary</h1>${Array.from(
  { length: 19 },
  (_, i) =>
    `<p style="margin:0 0 12px">Paragraph ${i + 1}: here is what happened on your account this week, in brief.</p>`,
).join('')}</body></html>`;

/** Per ten thousand, by a permutation of the row number: no QUEUED (every old email was settled). */
const STATUS = sql`CASE WHEN r < 8300 THEN 'DELIVERED' WHEN r < 9400 THEN 'OPENED' WHEN r < 9600 THEN 'CLICKED'
  WHEN r < 9900 THEN 'BOUNCED' WHEN r < 9910 THEN 'COMPLAINED' ELSE 'FAILED' END`;

export interface Team {
  id: number;
  domainId: number;
  domainName: string;
}

/** One month of `n` emails (newest: with bodies), their events, recipients and usage; one transaction. */
async function generateMonth(
  db: Db,
  team: Team,
  o: { start: Date; end: Date; n: number; salt: number; newest: boolean },
) {
  const now = new Date();
  const stepMs = (o.end.getTime() - o.start.getTime()) / o.n;
  return db.transaction().execute(async (tx) => {
    await sql`SET LOCAL session_replication_role = replica`.execute(tx);
    await sql`SET LOCAL work_mem = '256MB'`.execute(tx);
    await sql`CREATE TEMP TABLE bench_month ON COMMIT DROP AS
      SELECT g, at, herald_new_id('em_', at) AS id, ${STATUS} AS status
      FROM (SELECT g, ${o.start}::timestamptz + ((g - 0.5) * ${stepMs}::float8) * interval '1 millisecond' AS at,
                   (g::bigint * 7919 + ${o.salt}::int) % 10000 AS r
            FROM generate_series(1, ${o.n}::int) AS g) AS x`.execute(tx);
    await sql`INSERT INTO emails (id, team_id, domain_id, "from", "to", subject, html, status, run_at, attempts,
        created_at, updated_at, body_removed_at)
      SELECT id, ${team.id}::int, ${team.domainId}::int, ${`Acme <hello@${team.domainName}>`},
        to_jsonb('user' || ((g::bigint * 7919 + ${o.salt}::int) % ${RECIPIENTS}::int) || '@example.test'),
        CASE WHEN g % 4 = 0 THEN 'Your receipt #' || g WHEN g % 4 = 1 THEN 'Order ' || g || ' has shipped'
          WHEN g % 4 = 2 THEN 'Reset your password' ELSE 'Welcome to Acme' END,
        CASE WHEN ${o.newest}::boolean THEN ${HTML} || '<!-- ' || g || ' -->' END,
        status, at, 1, at, at + interval '1 minute',
        CASE WHEN NOT ${o.newest}::boolean THEN at + interval '30 days' END
      FROM bench_month ORDER BY id`.execute(tx);
    await sql`INSERT INTO email_recipients (team_id, address, email_id)
      SELECT ${team.id}::int, 'user' || ((g::bigint * 7919 + ${o.salt}::int) % ${RECIPIENTS}::int) || '@example.test', id
      FROM bench_month`.execute(tx);
    // QUEUED, the hand-off, the outcome: relayed mail SENT then its report; opened, clicked and
    // complained mail delivered directly; failed mail delayed first.
    const events = await sql`INSERT INTO email_events (team_id, email_id, status, created_at)
      SELECT ${team.id}::int, m.id, ev.status, least(m.at + ev.after, ${now}::timestamptz)
      FROM bench_month AS m
      CROSS JOIN LATERAL (VALUES
        (1, 'QUEUED', interval '0'),
        (2, CASE WHEN m.status IN ('OPENED', 'CLICKED', 'COMPLAINED') THEN 'DELIVERED'
              WHEN m.status = 'FAILED' THEN 'DELIVERY_DELAYED' ELSE 'SENT' END, interval '2 seconds'),
        (3, m.status, CASE WHEN m.status IN ('OPENED', 'CLICKED', 'COMPLAINED') THEN interval '3 hours'
              WHEN m.status = 'FAILED' THEN interval '2 days' ELSE interval '30 seconds' END)
      ) AS ev (n, status, after)
      ORDER BY m.id, ev.n`.execute(tx);
    await sql`INSERT INTO team_daily_usage (team_id, day, transactional, marketing)
      SELECT ${team.id}::int, (at AT TIME ZONE 'UTC')::date, count(*), 0 FROM bench_month GROUP BY 2
      ON CONFLICT (team_id, day) DO UPDATE SET transactional = team_daily_usage.transactional + excluded.transactional`.execute(
      tx,
    );
    return Number(events.numAffectedRows ?? 0n);
  });
}

export interface Generated {
  emails: number;
  /** Of which in the oldest month, the one retention drops. */
  oldestMonth: number;
  events: number;
  seconds: number;
  /** Of which: the analytics counters, then VACUUM ANALYZE. */
  statsSeconds: number;
  analyzeSeconds: number;
}

/** The spans history is spread over: the MONTHS months before `now`'s, then this month up to an hour ago. */
function historySpans(now: Date): { start: Date; end: Date; newest: boolean }[] {
  const spans = [];
  for (let k = -MONTHS; k <= 0; k++) {
    const start = monthStart(now, k);
    const end = k === 0 ? new Date(now.getTime() - 60 * 60 * 1000) : monthStart(now, k + 1);
    // Bodies in the last two spans: retention removed the older ones (markBodiesRemoved).
    if (end > start) spans.push({ start, end, newest: k >= -1 });
  }
  return spans;
}

/**
 * Adds `total` emails to the team over the MONTHS months before `now`'s and this month so far, each
 * span's share by its length, as a team sending evenly has them (this month's partition is not
 * empty when the measurements start); `salt` varies the statuses and recipients between calls. Then
 * counts the analytics counters afresh from every event (as a deployment's trigger would have) and
 * analyses.
 */
export async function generateHistory(db: Db, team: Team, now: Date, total: number, salt: number): Promise<Generated> {
  const started = performance.now();
  const spans = historySpans(now);
  const length = (span: { start: Date; end: Date }) => span.end.getTime() - span.start.getTime();
  const whole = spans.reduce((sum, span) => sum + length(span), 0);
  const shares = spans.map((span) => Math.floor((total * length(span)) / whole));
  // The remainder of the rounding goes to the oldest span (the month retention drops).
  shares[0]! += total - shares.reduce((sum, n) => sum + n, 0);
  let events = 0;
  for (const [i, span] of spans.entries()) {
    const n = shares[i]!;
    if (n <= 0) continue;
    const monthStarted = performance.now();
    events += await generateMonth(db, team, { ...span, n, salt });
    const label = span.start.toISOString().slice(0, 7);
    const seconds = ((performance.now() - monthStarted) / 1000).toFixed(1);
    console.log(`  ${label}: ${count(n)} emails, ${count(n * EVENTS_PER_EMAIL)} events, ${seconds} s`);
  }
  const statsStarted = performance.now();
  await db.transaction().execute(async (tx) => {
    await sql`SET LOCAL work_mem = '256MB'`.execute(tx);
    // The backfill adds to the counters: counted afresh, events of earlier measurements included.
    await sql`DELETE FROM email_daily_stats`.execute(tx);
    await backfillDailyStats(tx);
  });
  const analyzeStarted = performance.now();
  console.log(`  analytics counters: ${((analyzeStarted - statsStarted) / 1000).toFixed(1)} s`);
  // The months generated, as a deployment's autovacuum or planner-statistics chore leaves them
  // (src/db/statistics.ts); none is made ahead of this month.
  const history = await sql<{ name: string }>`
    SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
    WHERE i.inhparent::regclass::text IN ('emails', 'email_events', 'email_recipients', 'email_attachments', 'email_opens')
      AND c.relname ~ '_m[0-9]{6}$' AND right(c.relname, 6) <= ${now.toISOString().slice(0, 7).replace('-', '')}`.execute(
    db,
  );
  for (const { name } of history.rows) await sql`VACUUM ANALYZE ${sql.table(name)}`.execute(db);
  await sql`VACUUM ANALYZE team_daily_usage, email_daily_stats`.execute(db);
  const done = performance.now();
  console.log(`  VACUUM ANALYZE: ${((done - analyzeStarted) / 1000).toFixed(1)} s`);
  return {
    emails: total,
    oldestMonth: shares[0]!,
    events,
    seconds: (done - started) / 1000,
    statsSeconds: (analyzeStarted - statsStarted) / 1000,
    analyzeSeconds: (done - analyzeStarted) / 1000,
  };
}

export interface Sizes {
  databaseBytes: number;
  /** Tables, indexes and TOAST of the email family's partitions. */
  familyBytes: number;
  emails: number;
}

export async function measureSizes(db: Db, teamId: number): Promise<Sizes> {
  const { rows } = await sql<{ database: string; family: string; emails: string }>`SELECT
      pg_database_size(current_database())::text AS database,
      (SELECT sum(pg_total_relation_size(i.inhrelid))::text FROM pg_inherits i
        WHERE i.inhparent IN ('emails'::regclass, 'email_events'::regclass, 'email_recipients'::regclass,
                              'email_attachments'::regclass, 'email_opens'::regclass)) AS family,
      (SELECT count(*)::text FROM emails WHERE team_id = ${teamId}::int) AS emails`.execute(db);
  const row = rows[0]!;
  return { databaseBytes: Number(row.database), familyBytes: Number(row.family), emails: Number(row.emails) };
}
