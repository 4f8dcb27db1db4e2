// Pro months paid from the wallet (operator.md, "billingMethod"): a Pro team with billingMethod
// `wallet` pays each month at its currency's price from the price list. The first month is taken
// when the method is set (402, nothing changed, when the wallet is short); the renewal chore takes
// the next at proRenewsAt. A short wallet starts a grace period of GRACE_DAYS, during which sending
// goes on; after it the team's limits are the free plan's (effectiveKey free, unitsBlocked) until a
// payment goes through, which a top-up triggers at once. Each transition is a row, never an edit.
import type { Kysely, Transaction } from 'kysely';
import type { Database, TeamPlan } from '../db/schema.ts';
import type { BillingMethod, ProMonthEventRow } from '../db/schema-billing.ts';
import { ApiError, badRequest, notFound } from '../platform/errors.ts';
import { formatMinor, type Currency } from '../platform/money.ts';
import { proPrice, type PriceList } from '../platform/price-list.ts';
import { chargePlan } from '../wallet/index.ts';
import { appendProMonthEvent, latestProMonthEvent, nextCounterValue } from './pro-month-queries.ts';
import { getTeamBillingCurrency, lockTeamBilling, setTeamPlanAndBillingMethod } from './team-billing-queries.ts';

type Tx = Transaction<Database>;

/** How long a Pro team paid from the wallet keeps Pro after a renewal the wallet could not pay. */
export const GRACE_DAYS = 7;
const DAY_MS = 24 * 60 * 60 * 1000;

/** One calendar month later in UTC; the 31st becomes the last day of a shorter month. */
export function addMonth(at: Date): Date {
  const next = new Date(at);
  const day = at.getUTCDate();
  next.setUTCDate(1);
  next.setUTCMonth(next.getUTCMonth() + 1);
  const lastDay = new Date(Date.UTC(next.getUTCFullYear(), next.getUTCMonth() + 1, 0)).getUTCDate();
  next.setUTCDate(Math.min(day, lastDay));
  return next;
}

/** `HRD-000001`: sequential per deployment, no gaps (billing_counters). */
async function nextInvoiceNumber(tx: Tx): Promise<string> {
  const value = await nextCounterValue(tx, 'pro_month_invoice');
  return `HRD-${value.toString().padStart(6, '0')}`;
}

function monthPrice(prices: PriceList, currency: Currency): bigint {
  const pro = proPrice(prices, currency);
  if (!pro) throw badRequest(`billingMethod: the Pro plan is not priced in ${currency} yet`);
  return pro.monthlyMinor;
}

async function teamCurrency(tx: Tx, teamId: number): Promise<Currency> {
  const currency = await getTeamBillingCurrency(tx, teamId);
  if (!currency) throw notFound('team');
  return currency;
}

/** Pays [start, end) from the wallet: a PAID row with its invoice number, or null when short. */
async function payMonth(
  tx: Tx,
  teamId: number,
  period: { start: Date; end: Date },
  currency: Currency,
  amount: bigint,
  now: Date,
): Promise<ProMonthEventRow | null> {
  const charged = await chargePlan(tx, teamId, {
    type: 'PRO_MONTH',
    amountMinor: amount,
    reference: `pro-month:${period.start.toISOString()}`,
    description: `Pro plan, ${period.start.toISOString().slice(0, 10)} to ${period.end.toISOString().slice(0, 10)}`,
    at: now,
  });
  if (!charged.paid) return null;
  return appendProMonthEvent(tx, teamId, {
    kind: 'PAID',
    periodStart: period.start,
    periodEnd: period.end,
    amountMinor: amount,
    currency,
    transactionId: charged.row.id,
    invoiceNumber: await nextInvoiceNumber(tx),
    at: now,
  });
}

/**
 * operator.md: PATCH /teams/{teamId} with billingMethod or plan (undefined: unchanged), both written
 * here in one transaction with what they cause. A team that becomes Pro paid from the wallet (either
 * change) pays the first month now (402 and nothing changes when short); one that stops being it
 * gets a STOPPED row.
 */
export async function setPlanAndBillingMethod(
  db: Kysely<Database>,
  teamId: number,
  change: { method: BillingMethod | undefined; plan: TeamPlan | undefined },
  prices: PriceList,
  now: Date,
): Promise<void> {
  await db.transaction().execute(async (tx) => {
    const team = await lockTeamBilling(tx, teamId);
    if (!team) throw notFound('team');
    const plan = change.plan ?? team.plan;
    const method = change.method ?? team.billing_method;
    // Nothing changes: an owed month is the chore's and the next top-up's to pay, not this PATCH's.
    if (method === team.billing_method && plan === team.plan) return;
    const latest = await latestProMonthEvent(tx, teamId);
    const walletPays = method === 'wallet' && plan === 'pro';
    if (walletPays && !(latest?.kind === 'PAID' && latest.period_end > now)) {
      const currency = await teamCurrency(tx, teamId);
      const amount = monthPrice(prices, currency);
      const paid = await payMonth(tx, teamId, { start: now, end: addMonth(now) }, currency, amount, now);
      if (!paid) {
        throw new ApiError(
          402,
          'INSUFFICIENT_BALANCE',
          `The wallet cannot pay the Pro month (${formatMinor(amount, currency)}); top it up first`,
        );
      }
    } else if (!walletPays && latest && latest.kind !== 'STOPPED') {
      await appendProMonthEvent(tx, teamId, {
        kind: 'STOPPED',
        periodStart: latest.period_start,
        periodEnd: latest.period_end,
        amountMinor: latest.amount_minor,
        currency: latest.currency,
        at: now,
      });
    }
    await setTeamPlanAndBillingMethod(tx, teamId, { plan, method }, now);
  });
}

/**
 * Moves a Pro team paid from the wallet one step, in the caller's transaction: renews a month that
 * ended, retries a month owed in grace (ending the grace when its time is up) or after a lapse.
 * Returns the new row, or null when nothing was due.
 */
export async function renewProMonth(
  tx: Tx,
  teamId: number,
  prices: PriceList,
  now: Date,
): Promise<ProMonthEventRow | null> {
  const team = await lockTeamBilling(tx, teamId);
  if (!team || team.plan !== 'pro' || team.billing_method !== 'wallet') return null;
  const latest = await latestProMonthEvent(tx, teamId);
  if (!latest || latest.kind === 'STOPPED') return null;
  const currency = await teamCurrency(tx, teamId);
  const amount = proPrice(prices, currency)?.monthlyMinor;
  if (amount === undefined) return null;
  if (latest.kind === 'PAID') {
    if (latest.period_end > now) return null;
    const period = { start: latest.period_end, end: addMonth(latest.period_end) };
    const paid = await payMonth(tx, teamId, period, currency, amount, now);
    if (paid) return paid;
    return appendProMonthEvent(tx, teamId, {
      kind: 'GRACE',
      periodStart: period.start,
      periodEnd: period.end,
      amountMinor: amount,
      currency,
      graceStartedAt: now,
      graceEndsAt: new Date(now.getTime() + GRACE_DAYS * DAY_MS),
      at: now,
    });
  }
  if (latest.kind === 'GRACE') {
    const paid = await payMonth(
      tx,
      teamId,
      { start: latest.period_start, end: latest.period_end },
      currency,
      amount,
      now,
    );
    if (paid) return paid;
    if (latest.grace_ends_at && latest.grace_ends_at > now) return null;
    return appendProMonthEvent(tx, teamId, {
      kind: 'LAPSED',
      periodStart: latest.period_start,
      periodEnd: latest.period_end,
      amountMinor: amount,
      currency,
      graceStartedAt: latest.grace_started_at,
      graceEndsAt: latest.grace_ends_at,
      at: now,
    });
  }
  // LAPSED: a payment starts a new month from now.
  return payMonth(tx, teamId, { start: now, end: addMonth(now) }, currency, amount, now);
}

/** After a top-up: a month owed in grace or after a lapse is paid at once when the wallet now covers it. */
export async function settleOwedProMonth(tx: Tx, teamId: number, prices: PriceList, now: Date): Promise<void> {
  const latest = await latestProMonthEvent(tx, teamId);
  if (latest?.kind === 'GRACE' || latest?.kind === 'LAPSED') await renewProMonth(tx, teamId, prices, now);
}
