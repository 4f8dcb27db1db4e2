// The statements over team_daily_usage (the send quota's counters, one row per team and UTC day),
// team id first. limits.ts reserves with them.
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';

type Db = Kysely<Database> | Transaction<Database>;

export interface DayUsage {
  transactional: number;
  marketing: number;
}

/** Makes the teams' rows of the day that do not exist yet (empty), in team order. */
export async function insertMissingUsageRows(tx: Transaction<Database>, teamIds: number[], day: string): Promise<void> {
  await sql`INSERT INTO team_daily_usage (team_id, day)
    SELECT t.id, ${day}::date FROM unnest(${teamIds}::int[]) WITH ORDINALITY AS t (id, n) ORDER BY t.n
    ON CONFLICT (team_id, day) DO NOTHING`.execute(tx);
}

/** The teams' rows of the day, locked in team order until commit (so the day's totals cannot change meanwhile). */
export async function lockUsageOfDay(
  tx: Transaction<Database>,
  teamIds: number[],
  day: string,
): Promise<Map<number, DayUsage>> {
  const locked = await sql<DayUsage & { team_id: number }>`SELECT team_id, transactional, marketing
    FROM team_daily_usage WHERE team_id = ANY(${teamIds}::int[]) AND day = ${day}::date
    ORDER BY team_id FOR UPDATE`.execute(tx);
  return new Map(
    locked.rows.map((row) => [
      row.team_id,
      { transactional: Number(row.transactional), marketing: Number(row.marketing) },
    ]),
  );
}

/** Recipients counted per team in the month of `day`, before that day. */
export async function usedInMonthBefore(
  tx: Transaction<Database>,
  teamIds: number[],
  day: string,
): Promise<Map<number, number>> {
  if (teamIds.length === 0) return new Map();
  const earlier = await sql<{ team_id: number; used: string | number | bigint }>`
    SELECT team_id, SUM(transactional + marketing) AS used FROM team_daily_usage
    WHERE team_id = ANY(${teamIds}::int[]) AND day >= ${`${day.slice(0, 8)}01`}::date AND day < ${day}::date
    GROUP BY team_id`.execute(tx);
  return new Map(earlier.rows.map((row) => [row.team_id, Number(row.used)]));
}

/** Adds each team's reserved recipients to its row of the day (locked by lockUsageOfDay). */
export async function addUsageOfDay(
  tx: Transaction<Database>,
  day: string,
  added: Map<number, DayUsage>,
): Promise<void> {
  if (added.size === 0) return;
  const rows = [...added].map(([team_id, a]) => ({ team_id, ...a }));
  await sql`UPDATE team_daily_usage AS u
    SET transactional = u.transactional + a.transactional, marketing = u.marketing + a.marketing
    FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS a (team_id int, transactional int, marketing int)
    WHERE u.team_id = a.team_id AND u.day = ${day}::date`.execute(tx);
}

/** Recipients counted for the team per UTC day (zero without a row), e.g. for usage reads and tests. */
export async function usageOfDay(db: Db, teamId: number, day: string): Promise<DayUsage> {
  const row = await sql<{ transactional: string | number; marketing: string | number }>`
    SELECT COALESCE(SUM(transactional), 0) AS transactional, COALESCE(SUM(marketing), 0) AS marketing
    FROM team_daily_usage WHERE team_id = ${teamId} AND day = ${day}::date`.execute(db);
  return { transactional: Number(row.rows[0]?.transactional ?? 0), marketing: Number(row.rows[0]?.marketing ?? 0) };
}
