// The card processor (Stripe) behind a small interface: a customer's invoices and card
// subscription, read through the `stripe` package pointed at HERALD_STRIPE_API_URL. Every failure
// (unreachable, timeout, 5xx, refused credentials) is one CardProcessorUnavailable; an invoice that
// does not exist is null. No pay or download link ever leaves this file.
import type Stripe from 'stripe';
import { lazy } from '../../platform/lazy.ts';

/** The stripe package (200-odd modules), read at the first card call or event. */
const stripePackage = lazy(async () => (await import('stripe')).default);

export interface CardInvoice {
  id: string;
  customerId: string | null;
  number: string | null;
  createdAt: Date;
  amountDue: number;
  amountPaid: number;
  currency: string;
  status: string | null;
}

export interface CardSubscription {
  status: string;
  currentPeriodStart: Date | null;
  currentPeriodEnd: Date | null;
  cancelAtPeriodEnd: boolean;
  cancelAt: Date | null;
}

export interface CardProcessor {
  /** Newest first. */
  listInvoices(customerId: string, limit: number): Promise<CardInvoice[]>;
  getInvoice(invoiceId: string): Promise<CardInvoice | null>;
  /** The customer's newest subscription, or null. */
  getSubscription(customerId: string): Promise<CardSubscription | null>;
}

export class CardProcessorUnavailable extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'CardProcessorUnavailable';
  }
}

export interface StripeOptions {
  secretKey: string | null;
  apiUrl: string;
  timeoutMs: number;
}

const seconds = (value: unknown): Date | null => (typeof value === 'number' ? new Date(value * 1000) : null);

function invoiceOf(raw: Stripe.Invoice): CardInvoice {
  const customer = raw.customer;
  return {
    id: raw.id ?? '',
    customerId: typeof customer === 'string' ? customer : (customer?.id ?? null),
    number: raw.number ?? null,
    createdAt: new Date(raw.created * 1000),
    amountDue: raw.amount_due,
    amountPaid: raw.amount_paid,
    currency: raw.currency.toUpperCase(),
    status: raw.status ?? null,
  };
}

function subscriptionOf(raw: Stripe.Subscription): CardSubscription {
  // Newer API versions keep the period on the items; older ones on the subscription.
  const loose = raw as unknown as Record<string, unknown>;
  const item = raw.items?.data?.[0] as unknown as Record<string, unknown> | undefined;
  return {
    status: raw.status,
    currentPeriodStart: seconds(loose.current_period_start ?? item?.current_period_start),
    currentPeriodEnd: seconds(loose.current_period_end ?? item?.current_period_end),
    cancelAtPeriodEnd: raw.cancel_at_period_end === true,
    cancelAt: seconds(raw.cancel_at),
  };
}

export function createStripeCardProcessor(options: StripeOptions): CardProcessor {
  const url = new URL(options.apiUrl);
  const client = lazy(async () => {
    const StripeClient = await stripePackage();
    return new StripeClient(options.secretKey ?? 'sk_unset', {
      host: url.hostname,
      port: url.port === '' ? (url.protocol === 'http:' ? 80 : 443) : Number(url.port),
      protocol: url.protocol === 'http:' ? 'http' : 'https',
      timeout: options.timeoutMs,
      maxNetworkRetries: 0,
      telemetry: false,
    });
  });
  const unavailable = (error: unknown) =>
    new CardProcessorUnavailable(
      `card processor unavailable: ${error instanceof Error ? error.message : String(error)}`,
      { cause: error },
    );
  const call = async <T>(work: () => Promise<T>): Promise<T> => {
    if (options.secretKey === null) throw new CardProcessorUnavailable('HERALD_STRIPE_SECRET_KEY is not set');
    try {
      return await work();
    } catch (error) {
      throw unavailable(error);
    }
  };
  return {
    async listInvoices(customerId, limit) {
      const list = await call(async () => (await client()).invoices.list({ customer: customerId, limit }));
      return list.data.map(invoiceOf).sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime());
    },
    async getInvoice(invoiceId) {
      if (options.secretKey === null) throw new CardProcessorUnavailable('HERALD_STRIPE_SECRET_KEY is not set');
      const { errors } = await stripePackage();
      try {
        return invoiceOf(await (await client()).invoices.retrieve(invoiceId));
      } catch (error) {
        if (error instanceof errors.StripeInvalidRequestError && error.statusCode === 404) return null;
        throw unavailable(error);
      }
    },
    async getSubscription(customerId) {
      const list = await call(async () =>
        (await client()).subscriptions.list({ customer: customerId, status: 'all', limit: 1 }),
      );
      const first = list.data[0];
      return first ? subscriptionOf(first) : null;
    },
  };
}

export interface CardEvent {
  id: string;
  type: string;
  /** The customer the event is about, when it names one. */
  customerId: string | null;
}

const eventVerifier = lazy(async () => new (await stripePackage())('sk_unused_for_signature_checks'));

/** Stripe's default: an event signed more than 5 minutes from its receipt is a replay. */
export const CARD_EVENT_TOLERANCE_SECONDS = 300;

/** The header's `t=` as the stripe library reads it (the last one wins), or null. */
function signedAtSeconds(header: string): number | null {
  let timestamp: number | null = null;
  for (const item of header.split(',')) {
    const [name, value] = item.split('=');
    if (name === 't') timestamp = Number.parseInt(value ?? '', 10);
  }
  return timestamp !== null && Number.isFinite(timestamp) ? timestamp : null;
}

/**
 * A Stripe event checked against its `Stripe-Signature` (HMAC-SHA256 of the timestamp and body with
 * the endpoint secret, 5 minutes of tolerance around `receivedAt`, either way); null when the
 * signature fails or the event was signed too long before or after it was received.
 */
export async function verifyCardEvent(
  secret: string,
  payload: string,
  header: string,
  receivedAt: Date,
): Promise<CardEvent | null> {
  // The library takes `receivedAt` in milliseconds and only refuses old events; one signed in the
  // future (a clock far ahead, or a forged timestamp kept for later) is refused here.
  const signedAt = signedAtSeconds(header);
  const receivedAtSeconds = Math.floor(receivedAt.getTime() / 1000);
  if (signedAt === null || signedAt - receivedAtSeconds > CARD_EVENT_TOLERANCE_SECONDS) return null;
  const verifier = await eventVerifier();
  let event: Stripe.Event;
  try {
    event = verifier.webhooks.constructEvent(
      payload,
      header,
      secret,
      CARD_EVENT_TOLERANCE_SECONDS,
      undefined,
      receivedAt.getTime(),
    );
  } catch {
    return null;
  }
  const object = event.data?.object as unknown as { customer?: unknown; object?: string; id?: string } | undefined;
  const customer =
    typeof object?.customer === 'string'
      ? object.customer
      : object?.object === 'customer' && typeof object.id === 'string'
        ? object.id
        : null;
  return { id: event.id, type: event.type, customerId: customer };
}
