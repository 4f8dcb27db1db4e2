// The plans a team can be on, apart from their limits (plans.ts): the command line checks a --plan
// without loading the schemas that read the limits file.
import type { TeamPlan } from '../db/schema.ts';

export const TEAM_PLANS = ['free', 'pro'] as const satisfies readonly TeamPlan[];
