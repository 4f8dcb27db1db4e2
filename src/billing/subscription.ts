// GET /v1/billing/subscription (contract: Plan): the plan, how it is paid, the card subscription
// from the card processor for card teams, and the Pro months paid from the wallet.
import type { z } from 'zod';
import type { Db } from '../db/handle.ts';
import type { BillingMethod, Currency, TeamPlan } from '../db/schema.ts';
import type { ProMonthEventKind } from '../db/schema-billing.ts';
import { notFound } from '../platform/errors.ts';
import { formatMinor } from '../platform/money.ts';
import { proPrice, type PriceList } from '../platform/price-list.ts';
import type { CardSubscription } from '../adapters/card-processor/index.ts';
import { findTransaction } from '../wallet/index.ts';
import type { Subscription } from './plan-schemas.ts';
import { latestProMonthEvent } from './pro-month-queries.ts';
import { getTeamBilling } from './team-billing-queries.ts';

type WalletState = 'none' | 'active' | 'grace' | 'lapsed';

export function walletPlanState(kind: ProMonthEventKind | undefined): WalletState {
  switch (kind) {
    case 'PAID':
      return 'active';
    case 'GRACE':
      return 'grace';
    case 'LAPSED':
      return 'lapsed';
    default:
      return 'none';
  }
}

export interface BillingTeam {
  plan: TeamPlan;
  /** The plan the limits are enforced against today (platform/effective-plan.ts). */
  effectivePlan: TeamPlan;
  billingMethod: BillingMethod;
  currency: Currency;
  stripeCustomerId: string | null;
}

export async function billingTeam(db: Db, teamId: number): Promise<BillingTeam> {
  const row = await getTeamBilling(db, teamId);
  if (!row) throw notFound('team');
  return {
    plan: row.plan,
    effectivePlan: row.effective_plan,
    billingMethod: row.billing_method,
    currency: row.currency,
    stripeCustomerId: row.stripe_customer_id,
  };
}

async function receiptOf(db: Db, teamId: number, transactionId: string | null): Promise<string | null> {
  if (transactionId === null) return null;
  const row = await findTransaction(db, teamId, transactionId);
  return row?.receipt_reference ?? null;
}

const iso = (at: Date | null) => (at === null ? null : at.toISOString());

export async function readSubscription(
  db: Db,
  teamId: number,
  team: BillingTeam,
  card: CardSubscription | null,
  prices: PriceList,
): Promise<z.infer<typeof Subscription>> {
  const latest = team.billingMethod === 'wallet' ? await latestProMonthEvent(db, teamId) : undefined;
  const state = walletPlanState(latest?.kind);
  const pro = proPrice(prices, team.currency);
  const live =
    latest && latest.kind !== 'STOPPED'
      ? {
          status: latest.kind === 'PAID' ? 'paid' : latest.kind === 'GRACE' ? 'grace' : 'lapsed',
          paidVia: 'wallet',
          periodStart: latest.period_start.toISOString(),
          periodEnd: latest.period_end.toISOString(),
          amountMinor: Number(latest.amount_minor),
          amountFormatted: formatMinor(latest.amount_minor, latest.currency as Currency),
          cancelAtPeriodEnd: false,
          graceEndsAt: iso(latest.grace_ends_at),
          invoiceNumber: latest.invoice_number,
          receiptReference: await receiptOf(db, teamId, latest.transaction_id),
        }
      : null;
  const isActive =
    team.plan === 'pro' &&
    (team.billingMethod === 'wallet'
      ? team.effectivePlan === 'pro'
      : team.billingMethod === 'card'
        ? card !== null && ['active', 'trialing', 'past_due'].includes(card.status)
        : true);
  return {
    plan: team.plan,
    isActive,
    billingMethod: team.billingMethod,
    stripe: card && {
      status: card.status,
      currentPeriodStart: iso(card.currentPeriodStart),
      currentPeriodEnd: iso(card.currentPeriodEnd),
      cancelAtPeriodEnd: card.cancelAtPeriodEnd,
      cancelAt: iso(card.cancelAt),
    },
    wallet: {
      state,
      proRenewsAt:
        latest?.kind === 'PAID'
          ? latest.period_end.toISOString()
          : latest?.kind === 'GRACE'
            ? latest.period_start.toISOString()
            : null,
      graceStartedAt:
        latest && latest.kind !== 'PAID' && latest.kind !== 'STOPPED' ? iso(latest.grace_started_at) : null,
      graceEndsAt: latest && latest.kind !== 'PAID' && latest.kind !== 'STOPPED' ? iso(latest.grace_ends_at) : null,
      unitsBlocked: state === 'lapsed',
    },
    planPayment: {
      currency: team.currency,
      priceMinor: pro ? Number(pro.monthlyMinor) : 0,
      priceFormatted: formatMinor(pro?.monthlyMinor ?? 0n, team.currency),
      priceConfigured: pro !== null,
      fixedPrice: pro?.fixedPrice ?? false,
      walletPaysPlan: team.plan === 'pro' && team.billingMethod === 'wallet' && pro !== null,
      live,
    },
  };
}
