// The data of bench/dashboard-emails.ts: one Pro team with 5,000,000 emails over 90 days (statuses
// in a realistic mix, four kinds of subject and a rare fifth, 200,000 recipients, bodies of about
// 300 bytes) and their email_recipients rows, by set-based SQL in one transaction without triggers.
// The team named DATA_MARK exists only when that transaction committed, and later runs reuse it.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../src/db/schema.ts';
import { addMember, createTeam } from '../src/accounts/index.ts';
import { removeTeams } from './remove-teams.ts';

export const DATA_MARK = 'bench-dashboard-emails v1';
export const EMAILS = 5_000_000;
export const OWNER_EMAIL = 'owner@dashboard.bench.example.test';
const DAYS = 90;
const RECIPIENTS = 200_000;
/** One email in RARE_EVERY has the subject "Invoice … overdue": a search that finds 50 in all. */
export const RARE_EVERY = 100_000;

/** The status of row g, by g % 10,000 (per ten thousand): mostly delivered, a tail of the rest. */
const statusOf = sql`CASE
  WHEN g % 10000 < 8000 THEN 'DELIVERED' WHEN g % 10000 < 8800 THEN 'OPENED'
  WHEN g % 10000 < 9100 THEN 'CLICKED' WHEN g % 10000 < 9500 THEN 'SENT'
  WHEN g % 10000 < 9700 THEN 'BOUNCED' WHEN g % 10000 < 9800 THEN 'SUPPRESSED'
  WHEN g % 10000 < 9850 THEN 'FAILED' WHEN g % 10000 < 9855 THEN 'COMPLAINED'
  WHEN g % 10000 < 9865 THEN 'QUEUED' ELSE 'DELIVERED' END`;

export async function generateData(db: Kysely<Database>): Promise<{ teamId: number; seconds: number }> {
  const started = performance.now();
  await removeTeams(db, 'name = $1', [DATA_MARK]);
  const now = new Date();
  const teamId = await db.transaction().execute(async (tx) => {
    const team = await createTeam(tx, { name: DATA_MARK, plan: 'pro' }, now);
    await addMember(tx, team.id, { email: OWNER_EMAIL, role: 'OWNER' }, now);
    await sql`INSERT INTO domains (team_id, name, region, status, dkim_selector, dkim_public_key, dkim_private_key, return_path, verified_at, next_check_at)
      VALUES (${team.id}::int, 'dashboard.bench.example.test', 'us-east-1', 'SUCCESS', 'bench', 'none', 'none', 'bounces.dashboard.bench.example.test', ${now}::timestamptz, ${now}::timestamptz + interval '1 day')`.execute(
      tx,
    );
    await sql`SET LOCAL session_replication_role = replica`.execute(tx);
    await sql`INSERT INTO emails (id, team_id, domain_id, api_key_id, "from", "to", subject, html, text, status,
        delivery_delayed, run_at, attempts, created_at, updated_at)
      SELECT 'em_bd' || lpad(g::text, 8, '0'), ${team.id}::int, (SELECT id FROM domains WHERE team_id = ${team.id}::int),
        NULL, 'Acme <hello@dashboard.bench.example.test>',
        to_jsonb('user' || (g::bigint * 7919 % ${RECIPIENTS}::int) || '@example.test'),
        CASE WHEN g % ${RARE_EVERY}::int = 0 THEN 'Invoice ' || g || ' overdue'
          WHEN g % 4 = 0 THEN 'Your receipt #' || g WHEN g % 4 = 1 THEN 'Order ' || g || ' has shipped'
          WHEN g % 4 = 2 THEN 'Reset your password' ELSE 'Welcome to Acme' END,
        '<html><body><p>Hello user ' || g || ',</p>' || repeat('<p>Thanks for choosing Acme.</p>', 7) || '</body></html>',
        'Hello user ' || g || ', thanks for choosing Acme. ' || repeat('Thanks. ', 10),
        ${statusOf}, ${statusOf} = 'QUEUED', at, 1, at, at
      FROM (SELECT g, ${now}::timestamptz - (${EMAILS}::int - g) * (${DAYS}::int * interval '1 day' / ${EMAILS}::int) AS at
            FROM generate_series(1, ${EMAILS}::int) AS g) AS m`.execute(tx);
    await sql`INSERT INTO email_recipients (team_id, address, email_id)
      SELECT ${team.id}::int, "to" #>> '{}', id FROM emails WHERE team_id = ${team.id}::int`.execute(tx);
    await sql`SET LOCAL session_replication_role = origin`.execute(tx);
    return team.id;
  });
  await sql`VACUUM ANALYZE emails, email_recipients`.execute(db);
  return { teamId, seconds: (performance.now() - started) / 1000 };
}
