// Response schemas of the plan, usage and price-list reads (contract: Billing objects).
import { z } from 'zod';

const nullableDate = z.string().nullable();

export const Subscription = z
  .object({
    plan: z.string(),
    isActive: z.boolean(),
    billingMethod: z.string().describe('card, wallet or none'),
    stripe: z
      .object({
        status: z.string(),
        currentPeriodStart: nullableDate,
        currentPeriodEnd: nullableDate,
        cancelAtPeriodEnd: z.boolean(),
        cancelAt: nullableDate,
      })
      .nullable()
      .describe('the card subscription, from the card processor; null for a team not billed by card'),
    wallet: z.object({
      state: z.string().describe('none, active, grace or lapsed'),
      proRenewsAt: nullableDate,
      graceStartedAt: nullableDate,
      graceEndsAt: nullableDate,
      unitsBlocked: z.boolean(),
    }),
    planPayment: z.object({
      currency: z.string(),
      priceMinor: z.number().int(),
      priceFormatted: z.string(),
      priceConfigured: z.boolean(),
      fixedPrice: z.boolean().describe('true for NGN and KES'),
      walletPaysPlan: z.boolean(),
      live: z
        .object({
          status: z.string().describe('paid, grace or lapsed'),
          paidVia: z.string().describe('wallet'),
          periodStart: z.string(),
          periodEnd: z.string(),
          amountMinor: z.number().int(),
          amountFormatted: z.string(),
          cancelAtPeriodEnd: z.boolean(),
          graceEndsAt: nullableDate,
          invoiceNumber: z.string().nullable(),
          receiptReference: z.string().nullable(),
        })
        .nullable()
        .describe('the Pro month the team is on, owes or is paying'),
    }),
  })
  .meta({ id: 'BillingSubscription' });

const Meter = z.object({
  used: z.number().int(),
  limit: z.number().int().describe('-1 means no limit'),
  unlimited: z.boolean(),
  percentUsed: z.number(),
});

export const Usage = z
  .object({
    period: z.object({ startDay: z.string(), endDay: z.string().nullable(), label: z.string() }),
    plan: z.object({
      key: z.string(),
      effectiveKey: z.string().describe('the plan the limits are enforced against today'),
      displayName: z.string(),
      monthlyUsd: z.number(),
      status: z.string().nullable(),
      isEntitled: z.boolean(),
    }),
    emails: z.object({
      marketingThisMonth: z.number().int(),
      transactionalThisMonth: z.number().int(),
      totalThisMonth: z.number().int(),
      totalToday: z.number().int(),
    }),
    sending: z.object({ monthly: Meter, daily: Meter }),
    units: z
      .object({
        included: z.number().int(),
        used: z.number().int(),
        overage: z.number().int(),
        overageUsd: z.number(),
        overageMinor: z.number().int(),
        overageFormatted: z.string(),
        unitPriceFormatted: z.string().nullable(),
        note: z.string(),
      })
      .nullable(),
    billing: z.object({ method: z.string(), currency: z.string(), unitPriceMicro: z.number().int().nullable() }),
    resources: z.object({ domains: Meter, contactBooks: Meter, teamMembers: Meter, webhooks: Meter }),
    apiRateLimit: z.number().int().describe('requests per second the team keys may make'),
    thisMonth: z.object({
      emails: z.object({
        used: z.number().int(),
        limit: z.number().int(),
        unlimited: z.boolean(),
        percent: z.number(),
      }),
      texts: z.number().int(),
      codes: z.number().int(),
      textSpendFormatted: z
        .string()
        .nullable()
        .describe('only for a key made by a team admin and not limited to one domain'),
    }),
  })
  .meta({ id: 'BillingUsage' });

export const PriceListRead = z
  .object({
    currency: z.string(),
    channels: z.array(
      z.object({
        channel: z.string(),
        label: z.string(),
        tiers: z.array(
          z.object({
            id: z.string(),
            position: z.number().int(),
            name: z.string(),
            minVolume: z.number().int(),
            maxVolume: z.number().int().nullable(),
            recommended: z.boolean(),
            volumeLabel: z.string(),
          }),
        ),
        lines: z.array(
          z.object({
            productLine: z.string(),
            label: z.string(),
            monthlyFee: z.boolean(),
            cells: z.array(
              z
                .object({
                  tierId: z.string(),
                  priceMicro: z.number().int().nullable().describe('millionths of the major unit; null: on request'),
                  priceFormatted: z.string().nullable(),
                })
                .nullable(),
            ),
          }),
        ),
      }),
    ),
    pro: z.object({
      currency: z.string(),
      monthlyMinor: z.number().int().nullable(),
      monthlyFormatted: z.string().nullable(),
      unitPriceMicro: z.number().int().nullable(),
      fixedPrice: z.boolean(),
      configured: z.boolean().describe('false when the currency is not priced yet'),
    }),
  })
  .meta({ id: 'BillingPriceList' });
