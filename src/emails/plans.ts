// The send limits of each plan (contract: "Numeric daily and monthly send quotas per plan: not shown";
// these are Herald's). Every recipient of every email counts as one; suppressed recipients do not.
// null = no limit. See src/emails/README.md.
import type { TeamPlan } from '../db/schema.ts';

export interface PlanSendLimits {
  /** Recipients per UTC day. */
  daily: number | null;
  /** Recipients per UTC calendar month. */
  monthly: number | null;
}

export const planSendLimits: Record<TeamPlan, PlanSendLimits> = {
  free: { daily: 100, monthly: 3_000 },
  pro: { daily: 50_000, monthly: null },
};
