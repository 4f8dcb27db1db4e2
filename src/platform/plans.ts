// Every per-plan number in one table. The contract shows none of them ("numeric daily and monthly send
// quotas and webhook counts per plan: not shown", "apiRateLimit … its value is not shown"); these are
// Herald's. null means no limit. Each check reads the table through its own function, so a caller
// names the limit it enforces and the usage read reports the same numbers.
import type { TeamPlan } from '../db/schema.ts';

interface PlanLimits {
  /** Recipients per UTC day (every recipient of every email counts once; suppressed ones do not). */
  dailySends: number | null;
  /** Recipients per UTC calendar month. */
  monthlySends: number | null;
  webhooks: number | null;
  /** Sending domains. Not enforced yet: the usage read reports it. */
  domains: number | null;
  /** Contact books. Not enforced yet: the usage read reports it. */
  contactBooks: number | null;
  /** Team members. Not enforced yet: the usage read reports it. */
  members: number | null;
  /** Requests per second a new team's keys may make (the team's `apiRateLimit`, changed by the operator). */
  apiRateLimit: number;
  /** Units included in each Pro month before overage is charged; null where units do not apply. */
  includedUnits: number | null;
}

export const PLAN_LIMITS: Readonly<Record<TeamPlan, Readonly<PlanLimits>>> = {
  free: {
    dailySends: 100,
    monthlySends: 3_000,
    webhooks: 5,
    domains: 3,
    contactBooks: 3,
    members: 5,
    apiRateLimit: 10,
    includedUnits: null,
  },
  pro: {
    dailySends: 50_000,
    monthlySends: null,
    webhooks: 50,
    domains: null,
    contactBooks: null,
    members: null,
    apiRateLimit: 10,
    includedUnits: 10_000,
  },
};

export const TEAM_PLANS = ['free', 'pro'] as const satisfies readonly TeamPlan[];

export const dailySendLimit = (plan: TeamPlan): number | null => PLAN_LIMITS[plan].dailySends;
export const monthlySendLimit = (plan: TeamPlan): number | null => PLAN_LIMITS[plan].monthlySends;
export const webhookLimit = (plan: TeamPlan): number | null => PLAN_LIMITS[plan].webhooks;
export const domainLimit = (plan: TeamPlan): number | null => PLAN_LIMITS[plan].domains;
export const contactBookLimit = (plan: TeamPlan): number | null => PLAN_LIMITS[plan].contactBooks;
export const memberLimit = (plan: TeamPlan): number | null => PLAN_LIMITS[plan].members;
export const defaultApiRateLimit = (plan: TeamPlan): number => PLAN_LIMITS[plan].apiRateLimit;
export const includedUnits = (plan: TeamPlan): number | null => PLAN_LIMITS[plan].includedUnits;

/** True when `used` has reached the limit, so one more is refused (null: never). */
export function limitReached(used: number, limit: number | null): boolean {
  return limit !== null && used >= limit;
}
