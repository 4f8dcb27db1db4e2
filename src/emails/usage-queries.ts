// The statements over team_daily_usage (the send quota's counters, one or more rows per team and
// UTC day; migration 0009), team id first. limits.ts reserves with them.
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';

type Db = Kysely<Database> | Transaction<Database>;

export interface UsageShard {
  shard: number;
  transactional: number;
  marketing: number;
}

/** Makes the day's shard rows that do not exist yet (empty, no cap). */
export async function insertMissingUsageShards(
  tx: Transaction<Database>,
  teamId: number,
  day: string,
  shards: number,
): Promise<void> {
  await sql`INSERT INTO team_daily_usage (team_id, day, shard, transactional, marketing, cap, day_limit)
    SELECT ${teamId}, ${day}::date, s, 0, 0, 0, NULL FROM generate_series(0, ${shards - 1}) AS s
    ON CONFLICT (team_id, day, shard) DO NOTHING`.execute(tx);
}

/** Every shard of the team's day, locked in shard order (so two sends lock them in the same order). */
export async function lockUsageShardsOfDay(
  tx: Transaction<Database>,
  teamId: number,
  day: string,
): Promise<UsageShard[]> {
  const locked = await sql<UsageShard>`SELECT shard, transactional, marketing FROM team_daily_usage
    WHERE team_id = ${teamId} AND day = ${day}::date ORDER BY shard FOR UPDATE`.execute(tx);
  return locked.rows.map((r) => ({
    shard: Number(r.shard),
    transactional: Number(r.transactional),
    marketing: Number(r.marketing),
  }));
}

/** Recipients counted in the month of `day`, before that day. */
export async function usedInMonthBefore(tx: Transaction<Database>, teamId: number, day: string): Promise<number> {
  const earlier = await sql<{ used: string | number | bigint }>`
    SELECT COALESCE(SUM(transactional + marketing), 0) AS used FROM team_daily_usage
    WHERE team_id = ${teamId} AND day >= ${`${day.slice(0, 8)}01`}::date AND day < ${day}::date`.execute(tx);
  return Number(earlier.rows[0]?.used ?? 0);
}

/** Writes the day's shard counts and caps, and the daily limit the caps were shared out for. */
export async function setUsageShardsOfDay(
  tx: Transaction<Database>,
  teamId: number,
  day: string,
  shards: (UsageShard & { cap: number })[],
  dayLimit: number | null,
): Promise<void> {
  const values = shards.map((r) => sql`(${r.shard}::int, ${r.transactional}::int, ${r.marketing}::int, ${r.cap}::int)`);
  await sql`UPDATE team_daily_usage AS u
    SET transactional = v.t, marketing = v.m, cap = v.cap, day_limit = ${dayLimit}::int
    FROM (VALUES ${sql.join(values)}) AS v (shard, t, m, cap)
    WHERE u.team_id = ${teamId} AND u.day = ${day}::date AND u.shard = v.shard`.execute(tx);
}

/** Recipients counted for the team per UTC day (every shard summed), e.g. for usage reads and tests. */
export async function usageOfDay(
  db: Db,
  teamId: number,
  day: string,
): Promise<{ transactional: number; marketing: number }> {
  const row = await sql<{ transactional: string | number; marketing: string | number }>`
    SELECT COALESCE(SUM(transactional), 0) AS transactional, COALESCE(SUM(marketing), 0) AS marketing
    FROM team_daily_usage WHERE team_id = ${teamId} AND day = ${day}::date`.execute(db);
  return { transactional: Number(row.rows[0]?.transactional ?? 0), marketing: Number(row.rows[0]?.marketing ?? 0) };
}
