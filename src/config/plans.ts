// What each plan allows and which plan new teams get: HERALD_PLANS_FILE (checked like the price list,
// by platform/plans.ts) and HERALD_DEFAULT_PLAN.
import path from 'node:path';
import type { TeamPlan } from '../db/schema.ts';
import { loadPlanLimits, SHIPPED_PLANS_FILE, TEAM_PLANS, type PlanTable } from '../platform/plans.ts';
import { oneOf, text, type Env } from './parse.ts';

/** The plans shipped with Herald (config/plans.json), found from the source so the working directory does not matter. */
export const DEFAULT_PLANS_FILE = SHIPPED_PLANS_FILE;

export interface PlanConfig {
  /** HERALD_PLANS_FILE, resolved; `plans` is its content, checked at start. */
  plansFile: string;
  plans: PlanTable;
  /** HERALD_DEFAULT_PLAN, or free: the plan of a team created without one (admin API). */
  defaultPlan: TeamPlan;
  /**
   * The plan of the team the first start creates (only an embedded start creates one): HERALD_DEFAULT_PLAN
   * when set; unset, pro on the embedded database (a newcomer trying Herald on a laptop should not meet
   * free's 100 a day), free on a server.
   */
  firstTeamPlan: TeamPlan;
}

export function planConfig(env: Env, embedded: boolean): PlanConfig {
  const plansFile = path.resolve(text(env, 'HERALD_PLANS_FILE') ?? DEFAULT_PLANS_FILE);
  const plans = loadPlanLimits(plansFile);
  const chosen =
    text(env, 'HERALD_DEFAULT_PLAN') === null ? null : oneOf(env, 'HERALD_DEFAULT_PLAN', TEAM_PLANS, 'free');
  return {
    plansFile,
    plans,
    defaultPlan: chosen ?? 'free',
    firstTeamPlan: chosen ?? (embedded ? 'pro' : 'free'),
  };
}
