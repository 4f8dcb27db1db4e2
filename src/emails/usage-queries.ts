// The statements over team_daily_usage (the send quota's counters, one row per team and UTC day),
// team id first. limits.ts reserves with them.
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';

type Db = Kysely<Database> | Transaction<Database>;

export interface DayUsage {
  transactional: number;
  marketing: number;
}

/** Makes the team's row of the day if it does not exist yet (empty). */
export async function insertMissingUsageRow(tx: Transaction<Database>, teamId: number, day: string): Promise<void> {
  await sql`INSERT INTO team_daily_usage (team_id, day) VALUES (${teamId}, ${day}::date)
    ON CONFLICT (team_id, day) DO NOTHING`.execute(tx);
}

/** The team's row of the day, locked until commit (so the day's total cannot change meanwhile). */
export async function lockUsageOfDay(tx: Transaction<Database>, teamId: number, day: string): Promise<DayUsage> {
  const locked = await sql<DayUsage>`SELECT transactional, marketing FROM team_daily_usage
    WHERE team_id = ${teamId} AND day = ${day}::date FOR UPDATE`.execute(tx);
  const row = locked.rows[0];
  return { transactional: Number(row?.transactional ?? 0), marketing: Number(row?.marketing ?? 0) };
}

/** Recipients counted in the month of `day`, before that day. */
export async function usedInMonthBefore(tx: Transaction<Database>, teamId: number, day: string): Promise<number> {
  const earlier = await sql<{ used: string | number | bigint }>`
    SELECT COALESCE(SUM(transactional + marketing), 0) AS used FROM team_daily_usage
    WHERE team_id = ${teamId} AND day >= ${`${day.slice(0, 8)}01`}::date AND day < ${day}::date`.execute(tx);
  return Number(earlier.rows[0]?.used ?? 0);
}

/** Adds the send's recipients to the team's row of the day (locked by lockUsageOfDay). */
export async function addUsageOfDay(
  tx: Transaction<Database>,
  teamId: number,
  day: string,
  added: DayUsage,
): Promise<void> {
  await sql`UPDATE team_daily_usage
    SET transactional = transactional + ${added.transactional}::int, marketing = marketing + ${added.marketing}::int
    WHERE team_id = ${teamId} AND day = ${day}::date`.execute(tx);
}

/** Recipients counted for the team per UTC day (zero without a row), e.g. for usage reads and tests. */
export async function usageOfDay(db: Db, teamId: number, day: string): Promise<DayUsage> {
  const row = await sql<{ transactional: string | number; marketing: string | number }>`
    SELECT COALESCE(SUM(transactional), 0) AS transactional, COALESCE(SUM(marketing), 0) AS marketing
    FROM team_daily_usage WHERE team_id = ${teamId} AND day = ${day}::date`.execute(db);
  return { transactional: Number(row.rows[0]?.transactional ?? 0), marketing: Number(row.rows[0]?.marketing ?? 0) };
}
