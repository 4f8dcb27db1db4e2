// A fake Stripe for the card checkout (issue 45), beside the read-only fake-stripe.ts: the writes a
// checkout makes in Stripe's form encoding (POST /v1/customers with its Idempotency-Key, POST
// /v1/checkout/sessions), the reads after it (GET /v1/customers/{id}, /v1/subscriptions?customer=),
// an empty invoice list, the hosted page a Checkout Session's url opens, and `complete(id)`: what Stripe does when the
// customer pays, a live subscription and the two events it then posts (checkout.session.completed,
// customer.subscription.created), for the test to sign and deliver to /hooks/stripe.
//
//   const stripe = await FakeStripeCheckout.start();   // HERALD_STRIPE_API_URL = stripe.url
//   const { events } = stripe.complete(sessionId);
import type { Server } from 'node:http';
import { randomBytes } from 'node:crypto';
import { FakeProviderServer, type Answer, type RecordedRequest } from './fake-provider-server.ts';
import { STRIPE_TEST_SECRET_KEY, type StripeBehaviour } from './fake-stripe.ts';

export interface FakeCheckoutSession {
  id: string;
  object: 'checkout.session';
  mode: string;
  customer: string;
  client_reference_id: string | null;
  metadata: Record<string, string>;
  status: 'open' | 'complete';
  payment_status: 'unpaid' | 'paid';
  subscription: string | null;
  success_url: string;
  cancel_url: string | null;
  currency: string;
  amount_total: number;
  url: string;
  /** The form fields exactly as posted (`line_items[0][price_data][currency]` …). */
  form: Record<string, string>;
}

const id = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;
const now = () => Math.floor(Date.now() / 1000);

/** `metadata[a]=1&metadata[b]=2` → {a: '1', b: '2'}. */
function nested(form: Record<string, string>, prefix: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(form)) {
    const match = new RegExp(`^${prefix.replace(/[[\]]/g, '\\$&')}\\[([^\\]]+)\\]$`).exec(key);
    if (match) out[match[1]!] = value;
  }
  return out;
}

export class FakeStripeCheckout extends FakeProviderServer<StripeBehaviour> {
  readonly secretKey: string;
  readonly customers = new Map<string, { id: string; name: string | null; metadata: Record<string, string> }>();
  readonly sessions: FakeCheckoutSession[] = [];
  readonly subscriptions: { id: string; customer: string; status: string; metadata: Record<string, string> }[] = [];
  readonly #idempotent = new Map<string, string>();

  private constructor(server: Server, secretKey: string) {
    super(server, 'answer');
    this.secretKey = secretKey;
  }

  static async start(options: { secretKey?: string } = {}): Promise<FakeStripeCheckout> {
    return new FakeStripeCheckout(await FakeProviderServer.listen(), options.secretKey ?? STRIPE_TEST_SECRET_KEY);
  }

  /** Stripe's side of a paid checkout: the session complete, a live subscription, and the events' bodies. */
  complete(sessionId: string): { session: FakeCheckoutSession; events: { completed: string; created: string } } {
    const session = this.sessions.find((s) => s.id === sessionId);
    if (!session) throw new Error(`no checkout session ${sessionId}`);
    const subscription = { id: id('sub'), customer: session.customer, status: 'active', metadata: session.metadata };
    this.subscriptions.push(subscription);
    Object.assign(session, { status: 'complete', payment_status: 'paid', subscription: subscription.id });
    const { form: _form, ...object } = session;
    const event = (type: string, data: object) =>
      JSON.stringify({ id: id('evt'), object: 'event', type, created: now(), livemode: false, data: { object: data } });
    return {
      session,
      events: {
        completed: event('checkout.session.completed', object),
        created: event('customer.subscription.created', this.#subscriptionObject(subscription)),
      },
    };
  }

  #subscriptionObject(s: (typeof this.subscriptions)[number]) {
    const start = now();
    return {
      id: s.id,
      object: 'subscription',
      customer: s.customer,
      status: s.status,
      metadata: s.metadata,
      created: start,
      cancel_at_period_end: false,
      cancel_at: null,
      items: {
        object: 'list',
        data: [{ id: id('si'), current_period_start: start, current_period_end: start + 30 * 86400 }],
      },
    };
  }

  protected answer(request: RecordedRequest, behaviour: StripeBehaviour): Answer | null {
    const url = new URL(request.path, 'http://stripe.test');
    const page = /^\/c\/pay\/([^/]+)$/.exec(url.pathname);
    // The hosted checkout page is opened by the customer's browser: no secret key.
    if (page && request.method === 'GET') return this.#checkoutPage(decodeURIComponent(page[1]!));
    if (request.headers.authorization !== `Bearer ${this.secretKey}`) {
      return error(401, 'invalid_request_error', 'Invalid API Key provided');
    }
    if (behaviour === 'hang') return null;
    if (typeof behaviour === 'object') return error(behaviour.status, 'api_error', 'Something went wrong');
    const form = Object.fromEntries(new URLSearchParams(request.method === 'POST' ? request.body : ''));
    if (request.method === 'POST' && url.pathname === '/v1/customers') return this.#createCustomer(request, form);
    if (request.method === 'POST' && url.pathname === '/v1/checkout/sessions') return this.#createSession(form);
    if (request.method !== 'GET') return error(404, 'invalid_request_error', `Unrecognized request URL`);
    const customer = /^\/v1\/customers\/([^/]+)$/.exec(url.pathname);
    if (customer) {
      const found = this.customers.get(decodeURIComponent(customer[1]!));
      return found ? ok({ ...found, object: 'customer' }) : missing('customer', customer[1]!);
    }
    // No invoice is faked here (fake-stripe.ts has them): a new card customer has none yet.
    if (url.pathname === '/v1/invoices') return ok({ object: 'list', data: [], has_more: false, url: url.pathname });
    if (url.pathname === '/v1/subscriptions') {
      const data = this.subscriptions
        .filter((s) => s.customer === url.searchParams.get('customer'))
        .reverse()
        .map((s) => this.#subscriptionObject(s));
      return ok({ object: 'list', data: data.slice(0, 1), has_more: data.length > 1, url: url.pathname });
    }
    return error(404, 'invalid_request_error', `Unrecognized request URL (GET: ${url.pathname})`);
  }

  #createCustomer(request: RecordedRequest, form: Record<string, string>): Answer {
    const key = request.headers['idempotency-key'];
    const earlier = typeof key === 'string' ? this.#idempotent.get(key) : undefined;
    if (earlier) return ok({ ...this.customers.get(earlier), object: 'customer' });
    const customer = { id: id('cus'), name: form.name ?? null, metadata: nested(form, 'metadata') };
    this.customers.set(customer.id, customer);
    if (typeof key === 'string') this.#idempotent.set(key, customer.id);
    return ok({ ...customer, object: 'customer' });
  }

  #createSession(form: Record<string, string>): Answer {
    // What Stripe itself refuses, so a request the real API would reject fails here too.
    for (const required of ['mode', 'success_url', 'line_items[0][quantity]']) {
      if (!form[required]) return error(400, 'invalid_request_error', `Missing required param: ${required}.`);
    }
    const customer = form.customer ?? '';
    if (!this.customers.has(customer)) return missing('customer', customer);
    const price = 'line_items[0][price_data]';
    if (!form[`${price}[currency]`] || !form[`${price}[unit_amount]`] || !form[`${price}[recurring][interval]`]) {
      return error(
        400,
        'invalid_request_error',
        'line_items[0]: a recurring price_data is required in subscription mode',
      );
    }
    const sessionId = id('cs_test');
    const session: FakeCheckoutSession = {
      id: sessionId,
      object: 'checkout.session',
      mode: form.mode!,
      customer,
      client_reference_id: form.client_reference_id ?? null,
      metadata: nested(form, 'metadata'),
      status: 'open',
      payment_status: 'unpaid',
      subscription: null,
      success_url: form.success_url!,
      cancel_url: form.cancel_url ?? null,
      currency: form[`${price}[currency]`]!,
      amount_total: Number(form[`${price}[unit_amount]`]),
      url: `${this.url}/c/pay/${sessionId}`,
      form,
    };
    this.sessions.push(session);
    const { form: _form, ...body } = session;
    return ok(body);
  }

  #checkoutPage(sessionId: string): Answer {
    const session = this.sessions.find((s) => s.id === sessionId);
    if (!session) return { status: 404, body: 'No such checkout session', contentType: 'text/plain' };
    const amount = `${(session.amount_total / 100).toFixed(2)} ${session.currency.toUpperCase()}`;
    const body = `<!doctype html><html lang="en"><title>Fake Stripe Checkout</title><main><h1>Fake Stripe Checkout</h1><p>Subscribe for ${amount} a month</p></main></html>`;
    return { status: 200, body, contentType: 'text/html; charset=utf-8' };
  }
}

function ok(body: unknown): Answer {
  return { status: 200, body: JSON.stringify(body) };
}

function missing(kind: string, value: string): Answer {
  return error(404, 'invalid_request_error', `No such ${kind}: '${value}'`, 'resource_missing');
}

function error(status: number, type: string, message: string, code?: string): Answer {
  return { status, body: JSON.stringify({ error: { type, message, ...(code ? { code } : {}) } }) };
}
