// TEMPORARY: goes once src/emails/limits.ts imports src/platform/plans.ts itself. The send limits
// now live in platform/plans.ts with every other per-plan number; this keeps limits.ts's shape.
import type { TeamPlan } from '../db/schema.ts';
import { dailySendLimit, monthlySendLimit, TEAM_PLANS } from '../platform/plans.ts';

export interface PlanSendLimits {
  /** Recipients per UTC day. */
  daily: number | null;
  /** Recipients per UTC calendar month. */
  monthly: number | null;
}

export const planSendLimits = Object.fromEntries(
  TEAM_PLANS.map((plan) => [plan, { daily: dailySendLimit(plan), monthly: monthlySendLimit(plan) }]),
) as Record<TeamPlan, PlanSendLimits>;
