// The plan's daily and monthly send limits, reserved atomically with the emails they pay for:
// queueEmails (queue-emails.ts) calls reserveLocked in the transaction that stores the emails. The
// teams' usage rows of the day are locked, the totals (and the month's sums) checked, the recipients
// added. A send over either limit: 429 RATE_LIMITED, nothing of it stored.
import type { Transaction } from 'kysely';
import type { Database, TeamPlan, TemplateType } from '../db/schema.ts';
import { ApiError } from '../platform/errors.ts';
import { dailySendLimit, monthlySendLimit } from '../platform/plans.ts';
import { addUsageOfDay, lockUsageOfDay } from './usage-queries.ts';

export { usageOfDay } from './usage-queries.ts';

export interface Reservation {
  transactional: number;
  marketing: number;
}

const limited = (message: string) => new ApiError(429, 'RATE_LIMITED', message);
const NONE: Reservation = { transactional: 0, marketing: 0 };
const total = (r: Reservation) => r.transactional + r.marketing;
const dayOf = (now: Date) => now.toISOString().slice(0, 10);

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

/** One send's recipients, counted against its team's limits. */
export interface ReservationAsk {
  teamId: number;
  plan: TeamPlan;
  wanted: Reservation;
}

/**
 * The sends' reservations, inside the transaction that stores the emails: the teams' rows of the
 * day locked (in team order) and their month's sums read, once for all the sends; then each send in
 * order is checked against what its team has used, the sends before it included. Per send: null
 * (reserved) or its 429.
 */
export async function reserveLocked(
  tx: Transaction<Database>,
  now: Date,
  asks: ReservationAsk[],
): Promise<(ApiError | null)[]> {
  const refusals: (ApiError | null)[] = asks.map(() => null);
  const teamIds = [...new Set(asks.filter((a) => total(a.wanted) > 0).map((a) => a.teamId))].sort((a, b) => a - b);
  if (teamIds.length === 0) return refusals;
  const day = dayOf(now);
  // Today's rows are locked, so no send of these teams can change their month's sums meanwhile.
  const used = await lockUsageOfDay(tx, teamIds, day);
  const added = new Map<number, Reservation>();
  for (const [i, { teamId, plan, wanted }] of asks.entries()) {
    const n = total(wanted);
    if (n === 0) continue;
    const adding = added.get(teamId) ?? NONE;
    const today = total(used.get(teamId) ?? NONE) + total(adding);
    const daily = dailySendLimit(plan);
    const monthly = monthlySendLimit(plan);
    if (daily !== null && today + n > daily)
      refusals[i] = limited(`Daily send limit reached: the ${plan} plan allows ${daily} emails a day`);
    else if (monthly !== null && (used.get(teamId)?.monthBefore ?? 0) + today + n > monthly)
      refusals[i] = limited(`Monthly send limit reached: the ${plan} plan allows ${monthly} emails a month`);
    else
      added.set(teamId, {
        transactional: adding.transactional + wanted.transactional,
        marketing: adding.marketing + wanted.marketing,
      });
  }
  await addUsageOfDay(tx, day, added);
  return refusals;
}
