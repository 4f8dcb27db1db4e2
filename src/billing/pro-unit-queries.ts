// The Pro units of a team this month (0016_billing.sql), team id first: the units counted against the
// send quota (team_daily_usage), those already charged (pro_unit_charges) and the wallet's currency
// (through the wallet's fragment).
import { sql } from 'kysely';
import type { Db } from '../db/handle.ts';
import type { Currency } from '../platform/money.ts';
import { walletCurrencyOf } from '../wallet/index.ts';

export interface ProUnitCount {
  /** Units counted from the first of the month to `day`, inclusive. */
  used: number;
  /** Units already charged this month. */
  charged: bigint;
  /** The wallet's currency; null when the team has no wallet. */
  currency: Currency | null;
}

/** `month` is the month's first day and `day` today, both `YYYY-MM-DD` in UTC. */
export async function countProUnits(db: Db, teamId: number, month: string, day: string): Promise<ProUnitCount> {
  const counted = await sql<{ used: unknown; charged: unknown; currency: Currency | null }>`
    SELECT
      (SELECT COALESCE(SUM(transactional + marketing), 0) FROM team_daily_usage
        WHERE team_id = ${teamId} AND day >= ${month}::date AND day <= ${day}::date) AS used,
      (SELECT units_charged FROM pro_unit_charges WHERE team_id = ${teamId} AND month = ${month}::date) AS charged,
      ${walletCurrencyOf(sql`${teamId}::int`)} AS currency`.execute(db);
  const row = counted.rows[0]!;
  return { used: Number(row.used), charged: BigInt(String(row.charged ?? 0)), currency: row.currency };
}

/** The month's units charged so far, after a PRO_UNITS row in the same transaction. */
export async function recordProUnitsCharged(
  db: Db,
  teamId: number,
  month: string,
  units: bigint,
  now: Date,
): Promise<void> {
  await sql`INSERT INTO pro_unit_charges (team_id, month, units_charged, updated_at)
    VALUES (${teamId}, ${month}::date, ${units}, ${now})
    ON CONFLICT (team_id, month) DO UPDATE SET units_charged = EXCLUDED.units_charged, updated_at = EXCLUDED.updated_at`.execute(
    db,
  );
}
