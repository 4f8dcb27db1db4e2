// The plan's daily and monthly send limits, reserved atomically with the emails they pay for:
// queueEmails (queue-emails.ts) decides the reservations and adds them in the transaction that
// stores the emails, with the teams' usage rows of the day locked from the decision or from the
// addition (UsageLock). A send over either limit: 429 RATE_LIMITED, nothing of it stored.
import type { Transaction } from 'kysely';
import type { Database, TeamPlan, TemplateType } from '../db/schema.ts';
import { ApiError } from '../platform/errors.ts';
import { dailySendLimit, monthlySendLimit } from '../platform/plans.ts';
import { lockUsageOfDay, type DayUsage, type UsageOfMonth } from './usage-queries.ts';

export { usageOfDay } from './usage-queries.ts';

export interface Reservation {
  transactional: number;
  marketing: number;
}

/** A send over the plan's daily or monthly limit: 429, and which period must pass before it fits. */
export class SendLimitReached extends ApiError {
  readonly period: 'day' | 'month';
  constructor(message: string, period: 'day' | 'month') {
    super(429, 'RATE_LIMITED', message);
    this.period = period;
  }
}

const limited = (message: string, period: 'day' | 'month' = 'day') => new SendLimitReached(message, period);
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
 * How the teams' usage rows are held. 'first': locked before anything is decided, until commit (a
 * caller's own transaction). 'last': read unlocked, decided, then taken only by the addition at the
 * end, so that concurrent transactions of one team overlap until then (the send routes' shared
 * batches); if a send committed meanwhile would change a decision, UsageRaced is thrown and the
 * caller runs its transaction again with 'first'.
 */
export type UsageLock = 'first' | 'last';

/** Thrown by confirmReservations under 'last' when a decision no longer holds: roll back, run again with 'first'. */
export class UsageRaced extends Error {
  constructor() {
    super('a send committed meanwhile changed a reservation; run again with the usage rows locked first');
  }
}

/** The sends' reservations as decided: per ask null (reserved) or its 429, and what each team adds. */
export interface Reservations {
  refusals: (ApiError | null)[];
  day: string;
  asks: ReservationAsk[];
  used: Map<number, UsageOfMonth>;
  added: Map<number, Reservation>;
}

/**
 * The sends' reservations, inside the transaction that stores the emails: under 'first' the teams'
 * rows of the day locked and read with their month's sums, once for all the sends; under 'last'
 * `read` (the usage read with the sends' contexts). Then each send in order is checked against what
 * its team has used, the sends before it included.
 */
export async function decideReservations(
  tx: Transaction<Database>,
  now: Date,
  asks: ReservationAsk[],
  lock: UsageLock,
  read: Map<number, UsageOfMonth>,
): Promise<Reservations> {
  const teamIds = [...new Set(asks.filter((a) => total(a.wanted) > 0).map((a) => a.teamId))].sort((a, b) => a - b);
  const day = dayOf(now);
  // Under 'first' today's rows are locked, so no send of these teams can change their month's sums meanwhile.
  const used = lock === 'first' && teamIds.length > 0 ? await lockUsageOfDay(tx, teamIds, day) : read;
  return { day, asks, used, ...decide(asks, used) };
}

/**
 * After the reservations were added (with the emails, insert-queries.ts), `after` the teams' rows as
 * they then stood: under 'last', throws UsageRaced if what a send committed meanwhile added would
 * have changed a decision.
 */
export function confirmReservations(reservations: Reservations, after: Map<number, DayUsage>): void {
  const { asks, used, added, refusals } = reservations;
  // What each row held just before this addition (what was read, unless a send committed meanwhile).
  const before = new Map(
    [...used].map(([teamId, u]) => {
      const row = after.get(teamId);
      const mine = added.get(teamId) ?? NONE;
      if (row === undefined) return [teamId, u];
      return [
        teamId,
        { ...u, transactional: row.transactional - mine.transactional, marketing: row.marketing - mine.marketing },
      ];
    }),
  );
  const again = decide(asks, before).refusals;
  if (again.some((refusal, i) => (refusal === null) !== (refusals[i] === null))) throw new UsageRaced();
}

/** Each ask in order against its team's usage, the asks before it included. */
function decide(
  asks: ReservationAsk[],
  used: Map<number, UsageOfMonth>,
): { refusals: (ApiError | null)[]; added: Map<number, Reservation> } {
  const refusals: (ApiError | null)[] = asks.map(() => null);
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
      refusals[i] = limited(`Monthly send limit reached: the ${plan} plan allows ${monthly} emails a month`, 'month');
    else
      added.set(teamId, {
        transactional: adding.transactional + wanted.transactional,
        marketing: adding.marketing + wanted.marketing,
      });
  }
  return { refusals, added };
}
