// The plan's daily and monthly send limits, reserved atomically in the sending transaction. Today's
// usage row is upserted only while it stays within the daily limit (the row lock serialises
// concurrent sends of a team); the monthly sum is read after that lock is held, so it cannot race.
// A send over either limit answers 429 RATE_LIMITED and, the transaction rolling back, stores nothing.
import { sql, type Transaction } from 'kysely';
import type { Database, TeamPlan, TemplateType } from '../db/schema.ts';
import { ApiError } from '../platform/errors.ts';
import { planSendLimits } from './plans.ts';

export interface Reservation {
  transactional: number;
  marketing: number;
}

const limited = (message: string) => new ApiError(429, 'RATE_LIMITED', message);

export function countByType(items: { type: TemplateType; recipients: number }[]): Reservation {
  const out = { transactional: 0, marketing: 0 };
  for (const item of items) {
    if (item.type === 'MARKETING') out.marketing += item.recipients;
    else out.transactional += item.recipients;
  }
  return out;
}

export async function reserveSendQuota(tx: Transaction<Database>, teamId: number, plan: TeamPlan, now: Date, wanted: Reservation): Promise<void> {
  const n = wanted.transactional + wanted.marketing;
  if (n === 0) return;
  const { daily, monthly } = planSendLimits[plan];
  const day = now.toISOString().slice(0, 10);
  if (daily !== null && n > daily) throw limited(`This send needs ${n} emails; the ${plan} plan allows ${daily} a day`);
  const dailyCap = daily ?? 2_147_483_647;
  const reserved = await sql<{ used: number }>`
    INSERT INTO team_daily_usage AS u (team_id, day, transactional, marketing)
    VALUES (${teamId}, ${day}::date, ${wanted.transactional}, ${wanted.marketing})
    ON CONFLICT (team_id, day) DO UPDATE
      SET transactional = u.transactional + EXCLUDED.transactional, marketing = u.marketing + EXCLUDED.marketing
      WHERE u.transactional + u.marketing + ${n} <= ${dailyCap}
    RETURNING u.transactional + u.marketing AS used`.execute(tx);
  if (reserved.rows.length === 0) throw limited(`Daily send limit reached: the ${plan} plan allows ${daily} emails a day`);
  if (monthly === null) return;
  const monthStart = `${day.slice(0, 8)}01`;
  const month = await sql<{ used: string | number | bigint }>`
    SELECT COALESCE(SUM(transactional + marketing), 0) AS used FROM team_daily_usage
    WHERE team_id = ${teamId} AND day >= ${monthStart}::date AND day <= ${day}::date`.execute(tx);
  if (Number(month.rows[0]?.used ?? 0) > monthly) {
    throw limited(`Monthly send limit reached: the ${plan} plan allows ${monthly} emails a month`);
  }
}
