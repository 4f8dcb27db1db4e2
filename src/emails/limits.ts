// The plan's daily and monthly send limits, reserved atomically with the emails they pay for.
//
// Today's usage of a team is kept in USAGE_SHARDS rows (see migration 0009). A send takes one of
// two paths (send.ts):
// - the one-statement send (plans with a daily limit and no monthly one) adds its recipients to one
//   shard inside the very statement that stores the emails (store-queries.ts), and only if that
//   shard stays within its cap: no other shard is read or locked, so concurrent sends of one team
//   rarely wait for each other. The caps of a day add up to at most the daily limit, so the total
//   can never pass it.
// - the transaction send (queue-emails.ts, and the fallback of the first) reserves with
//   reserveLocked: every shard of the day locked in order, the totals (and the month's sum)
//   checked, the recipients added, and what is left of the daily limit shared out again as caps.
// Either way a send over a limit answers 429 RATE_LIMITED and stores nothing.
import { randomInt } from 'node:crypto';
import type { Transaction } from 'kysely';
import type { Database, TeamPlan, TemplateType } from '../db/schema.ts';
import { ApiError } from '../platform/errors.ts';
import { dailySendLimit, monthlySendLimit, TEAM_PLANS } from '../platform/plans.ts';
import {
  insertMissingUsageShards,
  lockUsageShardsOfDay,
  setUsageShardsOfDay,
  usedInMonthBefore,
  type UsageShard,
} from './usage-queries.ts';

export { usageOfDay } from './usage-queries.ts';

export const USAGE_SHARDS = 8;

export interface Reservation {
  transactional: number;
  marketing: number;
}

const limited = (message: string) => new ApiError(429, 'RATE_LIMITED', message);
const total = (r: Reservation) => r.transactional + r.marketing;
export const dayOf = (now: Date) => now.toISOString().slice(0, 10);

export function countByType(items: { type: TemplateType; recipients: number }[]): Reservation {
  const out = { transactional: 0, marketing: 0 };
  for (const item of items) {
    if (item.type === 'MARKETING') out.marketing += item.recipients;
    else out.transactional += item.recipients;
  }
  return out;
}

/** A send bigger than the whole daily limit can never fit: refuse it before touching anything. */
export function checkSendSize(plan: TeamPlan, wanted: Reservation): void {
  const daily = dailySendLimit(plan);
  const n = total(wanted);
  if (daily !== null && n > daily) throw limited(`This send needs ${n} emails; the ${plan} plan allows ${daily} a day`);
}

/**
 * Each plan's daily limit where the one-statement send applies (a daily limit and no monthly one:
 * the month's sum would need every day's rows); null where the plan always takes the transaction
 * send. The statement reads the team's plan itself and looks its limit up here.
 */
export const ONE_STATEMENT_DAILY_LIMITS: Readonly<Record<TeamPlan, number | null>> = Object.fromEntries(
  TEAM_PLANS.map((plan) => [plan, monthlySendLimit(plan) === null ? dailySendLimit(plan) : null]),
) as Record<TeamPlan, number | null>;

/** Whether a team of this plan may take the one-statement send at all. */
export const oneStatementPlan = (plan: TeamPlan): boolean => ONE_STATEMENT_DAILY_LIMITS[plan] !== null;

/** The transaction send's reservation, inside the transaction that stores the emails; throws 429 over a limit. */
export async function reserveLocked(
  tx: Transaction<Database>,
  teamId: number,
  plan: TeamPlan,
  now: Date,
  wanted: Reservation,
): Promise<void> {
  const n = total(wanted);
  if (n === 0) return;
  checkSendSize(plan, wanted);
  const daily = dailySendLimit(plan);
  const monthly = monthlySendLimit(plan);
  const day = dayOf(now);
  // A plan with a monthly limit never takes the one-statement send, so one row a day is enough for it.
  await insertMissingUsageShards(tx, teamId, day, monthly === null ? USAGE_SHARDS : 1);
  const rows = await lockUsageShardsOfDay(tx, teamId, day);
  const usedToday = rows.reduce((sum, r) => sum + r.transactional + r.marketing, 0);
  if (daily !== null && usedToday + n > daily)
    throw limited(`Daily send limit reached: the ${plan} plan allows ${daily} emails a day`);
  // Today's rows are locked, so no send of this team can change the month's sum meanwhile.
  if (monthly !== null && (await usedInMonthBefore(tx, teamId, day)) + usedToday + n > monthly)
    throw limited(`Monthly send limit reached: the ${plan} plan allows ${monthly} emails a month`);
  const target = rows[randomInt(rows.length)]!;
  target.transactional += wanted.transactional;
  target.marketing += wanted.marketing;
  const dayLimit = ONE_STATEMENT_DAILY_LIMITS[plan];
  const caps = shareOut(rows, dayLimit === null ? null : dayLimit - usedToday - n);
  await setUsageShardsOfDay(
    tx,
    teamId,
    day,
    rows.map((r, i) => ({ ...r, cap: caps[i]! })),
    dayLimit,
  );
}

/** New caps: each shard's usage plus an even share of what is left (none when the one-statement send is off). */
function shareOut(rows: UsageShard[], remaining: number | null): number[] {
  if (remaining === null) return rows.map(() => 0);
  const each = Math.floor(remaining / rows.length);
  const extra = remaining % rows.length;
  return rows.map((r, i) => r.transactional + r.marketing + each + (i < extra ? 1 : 0));
}
