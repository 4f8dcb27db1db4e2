// The two Stripe writes a card checkout needs (create a customer, create a Checkout Session), through
// the `stripe` package pointed at HERALD_STRIPE_API_URL, so the requests are Stripe's own
// form-encoded ones. Kept beside the checkout rather than in adapters/card-processor/ (the reads'
// adapter) only because this change may not touch that file; it belongs there.
import type Stripe from 'stripe';
import { lazy } from '../platform/lazy.ts';

const stripePackage = lazy(async () => (await import('stripe')).default);

export interface StripeCheckoutOptions {
  secretKey: string;
  apiUrl: string;
  timeoutMs: number;
}

export interface CheckoutSessionInput {
  customerId: string;
  teamId: number;
  currency: string;
  monthlyMinor: bigint;
  productName: string;
  successUrl: string;
  cancelUrl: string;
}

/** Stripe refused or could not be reached; the message is Stripe's (or the network's). */
export class StripeCheckoutFailed extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'StripeCheckoutFailed';
  }
}

export interface StripeCheckoutClient {
  createCustomer(input: { teamId: number; name: string }): Promise<string>;
  /** A subscription-mode Checkout Session; answers its hosted page's URL. */
  createCheckoutSession(input: CheckoutSessionInput): Promise<{ id: string; url: string }>;
}

export function createStripeCheckoutClient(options: StripeCheckoutOptions): StripeCheckoutClient {
  const url = new URL(options.apiUrl);
  const client = lazy(async () => {
    const StripeClient = await stripePackage();
    return new StripeClient(options.secretKey, {
      host: url.hostname,
      port: url.port === '' ? (url.protocol === 'http:' ? 80 : 443) : Number(url.port),
      protocol: url.protocol === 'http:' ? 'http' : 'https',
      timeout: options.timeoutMs,
      maxNetworkRetries: 0,
      telemetry: false,
    });
  });
  const call = async <T>(work: (stripe: Stripe) => Promise<T>): Promise<T> => {
    try {
      return await work(await client());
    } catch (error) {
      throw new StripeCheckoutFailed(error instanceof Error ? error.message : String(error), { cause: error });
    }
  };
  return {
    createCustomer: ({ teamId, name }) =>
      call(async (stripe) => {
        // One customer per team even when two admins click at once: Stripe answers the same
        // customer to the same idempotency key (for 24 h; the id is stored long before that).
        const customer = await stripe.customers.create(
          { name, metadata: { herald_team_id: String(teamId) } },
          { idempotencyKey: `herald-team-${teamId}-customer` },
        );
        return customer.id;
      }),
    createCheckoutSession: (input) =>
      call(async (stripe) => {
        const metadata = { herald_team_id: String(input.teamId) };
        const session = await stripe.checkout.sessions.create({
          mode: 'subscription',
          customer: input.customerId,
          client_reference_id: String(input.teamId),
          line_items: [
            {
              quantity: 1,
              price_data: {
                currency: input.currency.toLowerCase(),
                unit_amount: Number(input.monthlyMinor),
                recurring: { interval: 'month' },
                product_data: { name: input.productName },
              },
            },
          ],
          metadata,
          subscription_data: { metadata },
          success_url: input.successUrl,
          cancel_url: input.cancelUrl,
        });
        if (!session.url) throw new Error('Stripe answered a Checkout Session without a url');
        return { id: session.id, url: session.url };
      }),
  };
}
