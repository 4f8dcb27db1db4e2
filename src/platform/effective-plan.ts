// The plan a team's limits are enforced against today (contract, Usage read: `effectiveKey`): its
// plan, except that a Pro team paid from the wallet whose newest Pro month transition is LAPSED (the
// grace period ended unpaid; billing's renewal chore writes that row) is held to free until a
// payment writes PAID. This is the one place the rule lives: every statement that applies a plan's
// limits selects this expression instead of `teams.plan`, in the statement it already runs.
import { sql, type RawBuilder } from 'kysely';
import type { TeamPlan } from '../db/schema.ts';

/**
 * SQL for the effective plan of the `teams` row aliased `teamAlias` in the enclosing statement. The
 * newest pro_month_events row (a primary-key probe) is read only for Pro teams paid from the wallet:
 * CASE evaluates its branches in order, so every other team pays nothing for the rule.
 */
export function effectivePlanSql(teamAlias: string): RawBuilder<TeamPlan> {
  const plan = sql.ref(`${teamAlias}.plan`);
  return sql<TeamPlan>`(CASE
    WHEN ${plan} <> 'pro' OR ${sql.ref(`${teamAlias}.billing_method`)} <> 'wallet' THEN ${plan}
    WHEN (SELECT pme.kind FROM pro_month_events pme WHERE pme.team_id = ${sql.ref(`${teamAlias}.id`)}
          ORDER BY pme.seq DESC LIMIT 1) = 'LAPSED' THEN 'free'
    ELSE ${plan} END)`;
}
