// The plan's daily and monthly send limits, reserved atomically with the emails they pay for.
//
// Today's usage of a team is kept in USAGE_SHARDS rows (see migration 0009). The usual send adds
// its recipients to one shard, inside the very statement that stores the emails (shardReservation,
// store.ts: a statement's sends share one shard, and a process's statements take the shards in
// turn), and only if that shard stays within its cap: no other shard is read or locked, so
// concurrent sends of one team rarely wait for each other. The caps of a day add up to
// at most the daily limit, so the total can never pass it. When the shard is full, the day has no
// rows yet, the plan's limit changed, or the plan has a monthly limit (which needs the month's
// sum), the sender takes the locked path instead (reserveLocked): every shard of the day locked in
// order, the totals checked, the recipients added, and what is left of the daily limit shared out
// again as new caps. Either way a send over a limit answers 429 RATE_LIMITED and stores nothing.
import { randomInt } from 'node:crypto';
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database, TeamPlan, TemplateType } from '../db/schema.ts';
import { ApiError } from '../platform/errors.ts';
import { planSendLimits } from './plans.ts';

export const USAGE_SHARDS = 8;

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
  const { daily } = planSendLimits[plan];
  const n = total(wanted);
  if (daily !== null && n > daily) throw limited(`This send needs ${n} emails; the ${plan} plan allows ${daily} a day`);
}

/** What the fast path adds to one shard of today's usage (store.ts does it, with the emails). */
export interface ShardReservation {
  day: string;
  /** The daily limit the shard caps were shared out for; a shard set for another limit refuses. */
  dayLimit: number;
  transactional: number;
  marketing: number;
}

/**
 * The fast path's reservation: null when nothing is counted (every recipient suppressed); undefined
 * when this plan always takes the locked path (a monthly limit needs the month's sum; without a
 * daily limit there are no caps).
 */
export function shardReservation(plan: TeamPlan, now: Date, wanted: Reservation): ShardReservation | null | undefined {
  if (total(wanted) === 0) return null;
  const { daily, monthly } = planSendLimits[plan];
  if (monthly !== null || daily === null) return undefined;
  return { day: dayOf(now), dayLimit: daily, transactional: wanted.transactional, marketing: wanted.marketing };
}

/**
 * For the optimistic send (store.ts), which learns the team's plan inside its statement: each plan's
 * daily limit where the fast path applies, null where the plan always takes the locked path.
 */
export const FAST_PATH_DAILY_LIMITS: Readonly<Record<TeamPlan, number | null>> = Object.fromEntries(
  Object.entries(planSendLimits).map(([plan, { daily, monthly }]) => [plan, monthly === null ? daily : null]),
) as Record<TeamPlan, number | null>;

/** The reservation of an optimistic send, before the plan is known (store.ts reads the limit itself). */
export function optimisticReservation(now: Date, wanted: Reservation): ShardReservation {
  return { day: dayOf(now), dayLimit: 0, transactional: wanted.transactional, marketing: wanted.marketing };
}

interface ShardRow {
  shard: number;
  transactional: number;
  marketing: number;
}

/** The locked path: run inside the transaction that stores the emails; throws 429 over a limit. */
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
  const { daily, monthly } = planSendLimits[plan];
  const day = dayOf(now);
  // A plan with a monthly limit never takes the fast path, so one row a day is enough for it.
  const shards = monthly === null ? USAGE_SHARDS : 1;
  await sql`INSERT INTO team_daily_usage (team_id, day, shard, transactional, marketing, cap, day_limit)
    SELECT ${teamId}, ${day}::date, s, 0, 0, 0, NULL FROM generate_series(0, ${shards - 1}) AS s
    ON CONFLICT (team_id, day, shard) DO NOTHING`.execute(tx);
  const locked = await sql<ShardRow>`SELECT shard, transactional, marketing FROM team_daily_usage
    WHERE team_id = ${teamId} AND day = ${day}::date ORDER BY shard FOR UPDATE`.execute(tx);
  const rows = locked.rows.map((r) => ({
    shard: Number(r.shard),
    transactional: Number(r.transactional),
    marketing: Number(r.marketing),
  }));
  const usedToday = rows.reduce((sum, r) => sum + r.transactional + r.marketing, 0);
  if (daily !== null && usedToday + n > daily)
    throw limited(`Daily send limit reached: the ${plan} plan allows ${daily} emails a day`);
  if (monthly !== null) {
    // Today's rows are locked, so no send of this team can change the month's sum meanwhile.
    const earlier = await sql<{ used: string | number | bigint }>`
      SELECT COALESCE(SUM(transactional + marketing), 0) AS used FROM team_daily_usage
      WHERE team_id = ${teamId} AND day >= ${`${day.slice(0, 8)}01`}::date AND day < ${day}::date`.execute(tx);
    if (Number(earlier.rows[0]?.used ?? 0) + usedToday + n > monthly) {
      throw limited(`Monthly send limit reached: the ${plan} plan allows ${monthly} emails a month`);
    }
  }
  const target = rows[randomInt(rows.length)]!;
  target.transactional += wanted.transactional;
  target.marketing += wanted.marketing;
  // The fast path is on only for a daily limit without a monthly one.
  const dayLimit = daily !== null && monthly === null ? daily : null;
  const caps = shareOut(rows, dayLimit === null ? null : dayLimit - usedToday - n);
  const values = rows.map(
    (r, i) => sql`(${r.shard}::int, ${r.transactional}::int, ${r.marketing}::int, ${caps[i]!}::int)`,
  );
  await sql`UPDATE team_daily_usage AS u
    SET transactional = v.t, marketing = v.m, cap = v.cap, day_limit = ${dayLimit}::int
    FROM (VALUES ${sql.join(values)}) AS v (shard, t, m, cap)
    WHERE u.team_id = ${teamId} AND u.day = ${day}::date AND u.shard = v.shard`.execute(tx);
}

/** New caps: each shard's usage plus an even share of what is left (none when the fast path is off). */
function shareOut(rows: ShardRow[], remaining: number | null): number[] {
  if (remaining === null) return rows.map(() => 0);
  const each = Math.floor(remaining / rows.length);
  const extra = remaining % rows.length;
  return rows.map((r, i) => r.transactional + r.marketing + each + (i < extra ? 1 : 0));
}

/** Recipients counted for the team per UTC day (every shard summed), e.g. for usage reads and tests. */
export async function usageOfDay(
  db: Kysely<Database> | Transaction<Database>,
  teamId: number,
  day: string,
): Promise<Reservation> {
  const row = await sql<{ transactional: string | number; marketing: string | number }>`
    SELECT COALESCE(SUM(transactional), 0) AS transactional, COALESCE(SUM(marketing), 0) AS marketing
    FROM team_daily_usage WHERE team_id = ${teamId} AND day = ${day}::date`.execute(db);
  return { transactional: Number(row.rows[0]?.transactional ?? 0), marketing: Number(row.rows[0]?.marketing ?? 0) };
}
