// The statements over team_daily_usage (the send quota's counters, one row per team and UTC day),
// team id first. limits.ts reserves with them.
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';

type Db = Kysely<Database> | Transaction<Database>;

export interface DayUsage {
  transactional: number;
  marketing: number;
}

/** A team's row of the day, and what it counted earlier in the month. */
export interface UsageOfMonth extends DayUsage {
  /** Recipients counted in the month of the day, before that day. */
  monthBefore: number;
}

const firstOfMonth = (day: string) => `${day.slice(0, 8)}01`;

/**
 * The teams' rows of the day, made (empty) where missing and locked in team order until commit, so
 * that the day's totals cannot change meanwhile; with each team's sum of the month's earlier days.
 * The no-op update on conflict is what locks an existing row in the same statement.
 */
export async function lockUsageOfDay(
  tx: Transaction<Database>,
  teamIds: number[],
  day: string,
): Promise<Map<number, UsageOfMonth>> {
  const locked = await sql<UsageRow>`
    WITH locked AS (
      INSERT INTO team_daily_usage (team_id, day)
      SELECT t.id, ${day}::date FROM unnest(${teamIds}::int[]) WITH ORDINALITY AS t (id, n) ORDER BY t.n
      ON CONFLICT (team_id, day) DO UPDATE SET transactional = team_daily_usage.transactional
      RETURNING team_id, transactional, marketing
    )
    SELECT l.team_id, l.transactional, l.marketing,
      (SELECT COALESCE(SUM(m.transactional + m.marketing), 0) FROM team_daily_usage m
       WHERE m.team_id = l.team_id AND m.day >= ${firstOfMonth(day)}::date AND m.day < ${day}::date) AS month_before
    FROM locked l`.execute(tx);
  return usageByTeam(locked.rows);
}

/** lockUsageOfDay without the lock (nor the missing rows): what the teams had used when read. */
export async function readUsageOfDay(
  tx: Transaction<Database>,
  teamIds: number[],
  day: string,
): Promise<Map<number, UsageOfMonth>> {
  const read = await sql<UsageRow>`
    SELECT t.id AS team_id, COALESCE(u.transactional, 0) AS transactional, COALESCE(u.marketing, 0) AS marketing,
      (SELECT COALESCE(SUM(m.transactional + m.marketing), 0) FROM team_daily_usage m
       WHERE m.team_id = t.id AND m.day >= ${firstOfMonth(day)}::date AND m.day < ${day}::date) AS month_before
    FROM unnest(${teamIds}::int[]) AS t (id)
    LEFT JOIN team_daily_usage u ON u.team_id = t.id AND u.day = ${day}::date`.execute(tx);
  return usageByTeam(read.rows);
}

type UsageRow = { team_id: number; transactional: number; marketing: number; month_before: string | number };

const usageByTeam = (rows: UsageRow[]) =>
  new Map(
    rows.map((row) => [
      row.team_id,
      {
        transactional: Number(row.transactional),
        marketing: Number(row.marketing),
        monthBefore: Number(row.month_before),
      },
    ]),
  );

/**
 * Adds each team's recipients to its row of the day (made where missing), locking the rows in team
 * order until commit; returns each row as it stands after the addition.
 */
export async function addUsageOfDay(
  tx: Transaction<Database>,
  day: string,
  added: Map<number, DayUsage>,
): Promise<Map<number, DayUsage>> {
  if (added.size === 0) return new Map();
  const rows = [...added].map(([team_id, a]) => ({ team_id, ...a }));
  const after = await sql<{ team_id: number; transactional: number; marketing: number }>`
    INSERT INTO team_daily_usage (team_id, day, transactional, marketing)
    SELECT a.team_id, ${day}::date, a.transactional, a.marketing
    FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS a (team_id int, transactional int, marketing int)
    ORDER BY a.team_id
    ON CONFLICT (team_id, day) DO UPDATE SET transactional = team_daily_usage.transactional + excluded.transactional,
      marketing = team_daily_usage.marketing + excluded.marketing
    RETURNING team_id, transactional, marketing`.execute(tx);
  return new Map(after.rows.map((r) => [r.team_id, { transactional: r.transactional, marketing: r.marketing }]));
}

/** Recipients counted for the team per UTC day (zero without a row), e.g. for usage reads and tests. */
export async function usageOfDay(db: Db, teamId: number, day: string): Promise<DayUsage> {
  const row = await sql<{ transactional: string | number; marketing: string | number }>`
    SELECT COALESCE(SUM(transactional), 0) AS transactional, COALESCE(SUM(marketing), 0) AS marketing
    FROM team_daily_usage WHERE team_id = ${teamId} AND day = ${day}::date`.execute(db);
  return { transactional: Number(row.rows[0]?.transactional ?? 0), marketing: Number(row.rows[0]?.marketing ?? 0) };
}
