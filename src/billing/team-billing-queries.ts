// Billing's statements over the team row (plan, billing method, Stripe customer) and the currency
// the team pays in: its wallet's once it has one, else the team's. Team id first, except the
// lookups whose key is something else (a Stripe customer, every team paying Pro from its wallet).
import { sql } from 'kysely';
import type { Db } from '../db/handle.ts';
import type { BillingMethod, Currency, TeamPlan } from '../db/schema.ts';
import { effectivePlanSql } from '../platform/effective-plan.ts';

/** The team's plan and billing method, its row locked so plan changes and renewals take turns. */
export async function lockTeamBilling(db: Db, teamId: number) {
  return db
    .selectFrom('teams')
    .select(['plan', 'billing_method'])
    .where('id', '=', teamId)
    .forUpdate()
    .executeTakeFirst();
}

export interface TeamBillingRow {
  plan: TeamPlan;
  effective_plan: TeamPlan;
  billing_method: BillingMethod;
  currency: Currency;
  stripe_customer_id: string | null;
}

/** The plan, the plan enforced today (platform/effective-plan.ts), the method, currency and Stripe customer. */
export async function getTeamBilling(db: Db, teamId: number): Promise<TeamBillingRow | undefined> {
  const result = await sql<TeamBillingRow>`
    SELECT t.plan, ${effectivePlanSql('t')} AS effective_plan, t.billing_method, COALESCE(w.currency, t.currency) AS currency, t.stripe_customer_id
    FROM teams t LEFT JOIN wallets w ON w.team_id = t.id WHERE t.id = ${teamId}`.execute(db);
  return result.rows[0];
}

/** The currency the team pays in; undefined for a team that does not exist. */
export async function getTeamBillingCurrency(db: Db, teamId: number): Promise<Currency | undefined> {
  const result = await sql<{ currency: Currency }>`
    SELECT COALESCE(w.currency, t.currency) AS currency FROM teams t LEFT JOIN wallets w ON w.team_id = t.id
    WHERE t.id = ${teamId}`.execute(db);
  return result.rows[0]?.currency;
}

export async function setTeamPlanAndBillingMethod(
  db: Db,
  teamId: number,
  change: { plan: TeamPlan; method: BillingMethod },
  now: Date,
): Promise<void> {
  await db
    .updateTable('teams')
    .set({ billing_method: change.method, plan: change.plan, updated_at: now })
    .where('id', '=', teamId)
    .execute();
}

/** Every team on Pro paid from its wallet, by id. */
export async function teamsPayingProFromWallet(db: Db): Promise<number[]> {
  const rows = await db
    .selectFrom('teams')
    .select('id')
    .where('plan', '=', 'pro')
    .where('billing_method', '=', 'wallet')
    .orderBy('id')
    .execute();
  return rows.map((r) => r.id);
}

/** The teams whose Stripe customer this is (a Stripe event names the customer, not the team). */
export async function teamsOfStripeCustomer(db: Db, customerId: string): Promise<number[]> {
  const rows = await db.selectFrom('teams').select('id').where('stripe_customer_id', '=', customerId).execute();
  return rows.map((r) => r.id);
}
