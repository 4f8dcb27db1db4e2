// Billing's reads of a team: its billing columns (accounts owns the team row; read through
// accounts/index.ts) and the currency it pays in: its wallet's once it has one, else the team's.
import { getTeam, teamBillingColumns, type TeamBillingColumns } from '../accounts/index.ts';
import type { Db } from '../db/handle.ts';
import type { Currency } from '../db/schema.ts';
import { walletCurrency } from '../wallet/index.ts';

export {
  lockTeamBilling,
  setTeamPlanAndBillingMethod,
  teamsOfStripeCustomer,
  teamsPayingProFromWallet,
} from '../accounts/index.ts';

export type TeamBillingRow = TeamBillingColumns;

/** The plan, the plan enforced today, the method, the currency paid in and the Stripe customer. */
export async function getTeamBilling(db: Db, teamId: number): Promise<TeamBillingRow | undefined> {
  const team = await teamBillingColumns(db, teamId);
  if (team === undefined) return undefined;
  const wallet = await walletCurrency(db, teamId);
  return { ...team, currency: (wallet as Currency | null) ?? team.currency };
}

/** The currency the team pays in; undefined for a team that does not exist. */
export async function getTeamBillingCurrency(db: Db, teamId: number): Promise<Currency | undefined> {
  const team = await getTeam(db, teamId);
  if (team === undefined) return undefined;
  return ((await walletCurrency(db, teamId)) as Currency | null) ?? team.currency;
}
