// Pro by card (issue 45): PUT /v1/session/plan {plan: "pro", method: "card"} opens a Stripe Checkout
// Session (mode subscription, the team's Pro price from the price list) for the team's Stripe
// customer, made here when the team has none, and answers its URL. Nothing changes in Herald yet:
// the team becomes Pro, billed by card, when Stripe's signed event says the checkout completed
// (card-checkout-events.ts, through /hooks/stripe). Both Stripe settings are needed: without the
// webhook secret that event could never arrive, and the card would pay for a plan never granted.
import type { Kysely } from 'kysely';
import { getTeam, updateTeam } from '../accounts/index.ts';
import type { Database } from '../db/schema.ts';
import { ApiError, badRequest, notFound } from '../platform/errors.ts';
import { proPrice, type PriceList } from '../platform/price-list.ts';
import {
  createStripeCheckoutClient,
  StripeCheckoutFailed,
  type StripeCheckoutClient,
} from './stripe-checkout-client.ts';
import { getTeamBilling } from './team-billing-queries.ts';

export interface CardCheckoutDeps {
  db: Kysely<Database>;
  prices: PriceList;
  /** config.stripe: HERALD_STRIPE_SECRET_KEY, HERALD_STRIPE_API_URL, HERALD_STRIPE_WEBHOOK_SECRET. */
  stripe: { secretKey: string | null; apiUrl: string; timeoutMs: number; webhookSecret: string | null };
  /** HERALD_PUBLIC_URL: Stripe sends the browser back to its /billing. */
  publicUrl: string;
  now: () => Date;
  log: { warn(obj: object, msg: string): void };
}

export const PRO_PRODUCT_NAME = 'Herald Pro';

/** One client per settings, so the stripe package and its connection pool are made once. */
const clients = new Map<string, StripeCheckoutClient>();
function clientFor(stripe: CardCheckoutDeps['stripe'], secretKey: string): StripeCheckoutClient {
  const key = `${stripe.apiUrl}|${stripe.timeoutMs}|${secretKey}`;
  let client = clients.get(key);
  if (!client) {
    client = createStripeCheckoutClient({ secretKey, apiUrl: stripe.apiUrl, timeoutMs: stripe.timeoutMs });
    clients.set(key, client);
  }
  return client;
}

export async function startCardCheckout(deps: CardCheckoutDeps, teamId: number): Promise<{ checkoutUrl: string }> {
  const { secretKey, webhookSecret } = deps.stripe;
  const missing = [secretKey ? null : 'HERALD_STRIPE_SECRET_KEY', webhookSecret ? null : 'HERALD_STRIPE_WEBHOOK_SECRET']
    .filter(Boolean)
    .join(' and ');
  if (secretKey === null || missing !== '') {
    throw badRequest(`method: paying by card needs ${missing}, which this instance does not set; pay from the wallet`);
  }
  const team = await getTeamBilling(deps.db, teamId);
  const row = await getTeam(deps.db, teamId);
  if (!team || !row) throw notFound('Team');
  const pro = proPrice(deps.prices, team.currency);
  if (!pro) throw badRequest(`plan: the Pro plan is not priced in ${team.currency} yet`);

  const stripe = clientFor(deps.stripe, secretKey);
  const base = deps.publicUrl.replace(/\/+$/, '');
  try {
    let customerId = team.stripe_customer_id;
    if (customerId === null) {
      customerId = await stripe.createCustomer({ teamId, name: row.name });
      await updateTeam(deps.db, teamId, { stripeCustomerId: customerId }, deps.now());
    }
    const session = await stripe.createCheckoutSession({
      customerId,
      teamId,
      currency: team.currency,
      monthlyMinor: pro.monthlyMinor,
      productName: PRO_PRODUCT_NAME,
      successUrl: `${base}/billing?checkout=success`,
      cancelUrl: `${base}/billing?checkout=cancelled`,
    });
    return { checkoutUrl: session.url };
  } catch (error) {
    if (!(error instanceof StripeCheckoutFailed)) throw error;
    // A chosen answer, which the error handler does not log: say why here.
    deps.log.warn({ reason: error.message }, 'card checkout: Stripe refused or is unreachable');
    throw new ApiError(503, 'SERVICE_UNAVAILABLE', 'The card processor cannot start a checkout now; retry shortly');
  }
}
