// GET /v1/billing/usage: counters against the plan (contract: Usage read). Every figure comes from a
// counter or a small table (usage-queries.ts); the limits are platform/plans.ts's, of the plan the
// team is held to today (a Pro team paid from the wallet whose grace ended is held to free).
import type { z } from 'zod';
import type { Db } from '../db/handle.ts';
import type { Principal } from '../platform/auth/api-keys.ts';
import { notFound } from '../platform/errors.ts';
import { formatMillionths, formatMinor, millionthsToMinor, priceTimes } from '../platform/money.ts';
import {
  contactBookLimit,
  dailySendLimit,
  domainLimit,
  includedUnits,
  memberLimit,
  monthlySendLimit,
  webhookLimit,
} from '../platform/plans.ts';
import { proPrice, type PriceList } from '../platform/price-list.ts';
import type { Usage } from './plan-schemas.ts';
import { walletPlanState } from './subscription.ts';
import { textSpendThisMonth, usageCounts } from './usage-queries.ts';

type UsageRead = z.infer<typeof Usage>;

function meter(used: number, limit: number | null) {
  if (limit === null) return { used, limit: -1, unlimited: true, percentUsed: 0 };
  const percentUsed = limit === 0 ? 100 : Math.round((used / limit) * 10_000) / 100;
  return { used, limit, unlimited: false, percentUsed };
}

const utcDay = (at: Date) => at.toISOString().slice(0, 10);

/** Contract rule 7: the text spend only for a key made by a team admin that is not limited to a domain. */
function seesTextSpend(principal: Principal): boolean {
  return (principal.makerRole === 'OWNER' || principal.makerRole === 'ADMIN') && principal.domainId === null;
}

export async function readUsage(db: Db, principal: Principal, prices: PriceList, now: Date): Promise<UsageRead> {
  const teamId = principal.teamId;
  const monthStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  const nextMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
  const counts = await usageCounts(db, teamId, utcDay(monthStart), utcDay(now));
  if (!counts) throw notFound('team');
  const effective = counts.effectivePlan;
  const currency = counts.currency;
  const pro = proPrice(prices, currency);
  const usdPro = proPrice(prices, 'USD');
  const totalThisMonth = counts.marketingThisMonth + counts.transactionalThisMonth;
  const monthly = meter(totalThisMonth, monthlySendLimit(effective));

  let units: UsageRead['units'] = null;
  const included = includedUnits(counts.plan);
  if (counts.plan === 'pro' && included !== null) {
    const overage = Math.max(0, totalThisMonth - included);
    const overageMinor = pro ? millionthsToMinor(priceTimes(pro.unitPriceMicro, overage), currency) : 0n;
    units = {
      included,
      used: totalThisMonth,
      overage,
      overageUsd: usdPro ? (Number(usdPro.unitPriceMicro) * overage) / 1_000_000 : 0,
      overageMinor: Number(overageMinor),
      overageFormatted: formatMinor(overageMinor, currency),
      unitPriceFormatted: pro ? formatMillionths(pro.unitPriceMicro, currency) : null,
      note:
        counts.billingMethod === 'wallet'
          ? 'Units past the included amount are charged to the wallet once a day (PRO_UNITS rows).'
          : 'Units past the included amount are reported here; the card processor bills them.',
    };
  }

  const spend = seesTextSpend(principal) ? await textSpendThisMonth(db, teamId, monthStart) : null;
  return {
    period: {
      startDay: utcDay(monthStart),
      endDay: utcDay(nextMonth),
      label: monthStart.toLocaleString('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' }),
    },
    plan: {
      key: counts.plan,
      effectiveKey: effective,
      displayName: counts.plan === 'pro' ? 'Pro' : 'Free',
      monthlyUsd: counts.plan === 'pro' && usdPro ? Number(usdPro.monthlyMinor) / 100 : 0,
      status: counts.billingMethod === 'wallet' ? walletPlanState(counts.walletKind) : null,
      isEntitled: effective === counts.plan,
    },
    emails: {
      marketingThisMonth: counts.marketingThisMonth,
      transactionalThisMonth: counts.transactionalThisMonth,
      totalThisMonth,
      totalToday: counts.totalToday,
    },
    sending: { monthly, daily: meter(counts.totalToday, dailySendLimit(effective)) },
    units,
    billing: {
      method: counts.billingMethod,
      currency,
      unitPriceMicro: pro && counts.plan === 'pro' ? Number(pro.unitPriceMicro) : null,
    },
    resources: {
      domains: meter(counts.domains, domainLimit(effective)),
      contactBooks: meter(counts.contactBooks, contactBookLimit(effective)),
      teamMembers: meter(counts.members, memberLimit(effective)),
      webhooks: meter(counts.webhooks, webhookLimit(effective)),
    },
    apiRateLimit: counts.apiRateLimit,
    thisMonth: {
      emails: { used: monthly.used, limit: monthly.limit, unlimited: monthly.unlimited, percent: monthly.percentUsed },
      texts: counts.textsThisMonth,
      codes: counts.codesThisMonth,
      textSpendFormatted: spend === null ? null : formatMinor(spend, currency),
    },
  };
}
