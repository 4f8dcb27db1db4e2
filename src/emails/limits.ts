// The plan's daily and monthly send limits, reserved atomically with the emails they pay for:
// queueEmails (queue-emails.ts) calls reserveLocked in the transaction that stores the emails. The
// day's usage rows of the team are locked, the totals (and the month's sum) checked, the recipients
// added. Over either limit: 429 RATE_LIMITED, nothing stored.
import type { Transaction } from 'kysely';
import type { Database, TeamPlan, TemplateType } from '../db/schema.ts';
import { ApiError } from '../platform/errors.ts';
import { dailySendLimit, monthlySendLimit } from '../platform/plans.ts';
import { addUsageOfDay, insertMissingUsageRow, lockUsageOfDay, usedInMonthBefore } from './usage-queries.ts';

export { usageOfDay } from './usage-queries.ts';

export interface Reservation {
  transactional: number;
  marketing: number;
}

const limited = (message: string) => new ApiError(429, 'RATE_LIMITED', message);
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

/** The send's reservation, inside the transaction that stores the emails; throws 429 over a limit. */
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
  await insertMissingUsageRow(tx, teamId, day);
  const usedToday = total(await lockUsageOfDay(tx, teamId, day));
  if (daily !== null && usedToday + n > daily)
    throw limited(`Daily send limit reached: the ${plan} plan allows ${daily} emails a day`);
  // Today's row is locked, so no send of this team can change the month's sum meanwhile.
  if (monthly !== null && (await usedInMonthBefore(tx, teamId, day)) + usedToday + n > monthly)
    throw limited(`Monthly send limit reached: the ${plan} plan allows ${monthly} emails a month`);
  await addUsageOfDay(tx, teamId, day, wanted);
}
