// The statements over team_daily_usage (the send quota's counters, one row per team and UTC day),
// team id first. limits.ts reserves with them.
import { sql, type Kysely, type RawBuilder, type Transaction } from 'kysely';
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

/**
 * lockUsageOfDay's figures without the lock, as a JSON array [transactional, marketing, monthBefore]
 * of the team `teamId` names: a column of the send's context read (queries.ts readSendContexts).
 */
export function usageOfMonthJson(teamId: RawBuilder<unknown>, day: string): RawBuilder<[number, number, number]> {
  return sql`json_build_array(
    (SELECT COALESCE(SUM(u.transactional), 0) FROM team_daily_usage u WHERE u.team_id = ${teamId} AND u.day = ${day}::date),
    (SELECT COALESCE(SUM(u.marketing), 0) FROM team_daily_usage u WHERE u.team_id = ${teamId} AND u.day = ${day}::date),
    (SELECT COALESCE(SUM(m.transactional + m.marketing), 0) FROM team_daily_usage m
     WHERE m.team_id = ${teamId} AND m.day >= ${firstOfMonth(day)}::date AND m.day < ${day}::date))`;
}

/** usageOfMonthJson's array as read. */
export const usageOfMonthFrom = ([transactional, marketing, monthBefore]: [number, number, number]): UsageOfMonth => ({
  transactional: Number(transactional),
  marketing: Number(marketing),
  monthBefore: Number(monthBefore),
});

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
 * order until commit, and returns each row as it then stands: a CTE of the statement that stores the
 * emails these recipients pay for (insert-queries.ts), so the addition costs no round trip.
 */
export function usageAddition(day: string, added: Map<number, DayUsage>): RawBuilder<UsageAfter> {
  const rows = [...added].map(([team_id, a]) => ({ team_id, ...a }));
  return sql`INSERT INTO team_daily_usage (team_id, day, transactional, marketing)
    SELECT a.team_id, ${day}::date, a.transactional, a.marketing
    FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS a (team_id int, transactional int, marketing int)
    ORDER BY a.team_id
    ON CONFLICT (team_id, day) DO UPDATE SET transactional = team_daily_usage.transactional + excluded.transactional,
      marketing = team_daily_usage.marketing + excluded.marketing
    RETURNING team_id, transactional, marketing`;
}

/** A row of usageAddition's RETURNING. */
export type UsageAfter = DayUsage & { team_id: number };

/** Recipients counted for the team per UTC day (zero without a row), e.g. for usage reads and tests. */
export async function usageOfDay(db: Db, teamId: number, day: string): Promise<DayUsage> {
  const row = await sql<{ transactional: string | number; marketing: string | number }>`
    SELECT COALESCE(SUM(transactional), 0) AS transactional, COALESCE(SUM(marketing), 0) AS marketing
    FROM team_daily_usage WHERE team_id = ${teamId} AND day = ${day}::date`.execute(db);
  return { transactional: Number(row.rows[0]?.transactional ?? 0), marketing: Number(row.rows[0]?.marketing ?? 0) };
}
