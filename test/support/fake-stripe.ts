// A fake Stripe API on loopback, speaking the real formats the `stripe` package reads: bearer secret
// key, GET /v1/invoices?customer=…&limit=…, GET /v1/invoices/{id}, GET /v1/subscriptions?customer=…,
// GET /v1/customers/{id}; list objects `{object: "list", data, has_more, url}` and errors
// `{error: {type, message}}` (404 resource_missing for an unknown id).
//
//   const stripe = await FakeStripe.start();     // HERALD_STRIPE_API_URL = stripe.url
//   stripe.addCustomer('cus_1'); stripe.addInvoice('cus_1', { amountDue: 2000 });
//   stripe.enqueue({ status: 500 }, 'hang');     // the next calls fail, then never answer
import type { Server } from 'node:http';
import { randomBytes } from 'node:crypto';
import { FakeProviderServer, type Answer, type RecordedRequest } from './fake-provider-server.ts';

export const STRIPE_TEST_SECRET_KEY = 'sk_test_herald_fake_0123456789';

/** answer; an HTTP error status; never answer. */
export type StripeBehaviour = 'answer' | { status: number } | 'hang';

interface FakeInvoice {
  id: string;
  object: 'invoice';
  customer: string;
  number: string | null;
  created: number;
  amount_due: number;
  amount_paid: number;
  currency: string;
  status: string;
  hosted_invoice_url: string;
  invoice_pdf: string;
}

interface FakeSubscription {
  id: string;
  object: 'subscription';
  customer: string;
  status: string;
  created: number;
  cancel_at_period_end: boolean;
  cancel_at: number | null;
  items: { object: 'list'; data: { id: string; current_period_start: number; current_period_end: number }[] };
}

const id = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;

export class FakeStripe extends FakeProviderServer<StripeBehaviour> {
  readonly secretKey: string;
  readonly customers = new Set<string>();
  readonly invoices: FakeInvoice[] = [];
  readonly subscriptions: FakeSubscription[] = [];
  #clock = 1_760_000_000;

  private constructor(server: Server, secretKey: string) {
    super(server, 'answer');
    this.secretKey = secretKey;
  }

  static async start(options: { secretKey?: string } = {}): Promise<FakeStripe> {
    return new FakeStripe(await FakeProviderServer.listen(), options.secretKey ?? STRIPE_TEST_SECRET_KEY);
  }

  addCustomer(customerId = id('cus')): string {
    this.customers.add(customerId);
    return customerId;
  }

  /** Each invoice is created one hour after the previous one. */
  addInvoice(
    customer: string,
    fields: {
      amountDue?: number;
      amountPaid?: number;
      status?: string;
      currency?: string;
      number?: string | null;
    } = {},
  ): FakeInvoice {
    this.#clock += 3600;
    const invoice: FakeInvoice = {
      id: id('in'),
      object: 'invoice',
      customer,
      number: fields.number === undefined ? `INV-${this.invoices.length + 1}` : fields.number,
      created: this.#clock,
      amount_due: fields.amountDue ?? 2000,
      amount_paid: fields.amountPaid ?? fields.amountDue ?? 2000,
      currency: fields.currency ?? 'usd',
      status: fields.status ?? 'paid',
      hosted_invoice_url: 'https://invoice.stripe.test/pay',
      invoice_pdf: 'https://invoice.stripe.test/pdf',
    };
    this.invoices.push(invoice);
    return invoice;
  }

  addSubscription(
    customer: string,
    fields: { status?: string; periodStart?: number; periodEnd?: number; cancelAtPeriodEnd?: boolean } = {},
  ): FakeSubscription {
    this.#clock += 60;
    const start = fields.periodStart ?? this.#clock;
    const subscription: FakeSubscription = {
      id: id('sub'),
      object: 'subscription',
      customer,
      status: fields.status ?? 'active',
      created: this.#clock,
      cancel_at_period_end: fields.cancelAtPeriodEnd ?? false,
      cancel_at: null,
      items: {
        object: 'list',
        data: [
          { id: id('si'), current_period_start: start, current_period_end: fields.periodEnd ?? start + 30 * 86400 },
        ],
      },
    };
    this.subscriptions.push(subscription);
    return subscription;
  }

  protected answer(request: RecordedRequest, behaviour: StripeBehaviour): Answer | null {
    if (request.headers.authorization !== `Bearer ${this.secretKey}`) {
      return error(401, 'invalid_request_error', 'Invalid API Key provided');
    }
    if (behaviour === 'hang') return null;
    if (typeof behaviour === 'object') return error(behaviour.status, 'api_error', 'Something went wrong');
    const url = new URL(request.path, 'http://stripe.test');
    const query = url.searchParams;
    const limit = Math.min(100, Number(query.get('limit') ?? 10));
    if (request.method !== 'GET') return error(405, 'invalid_request_error', 'Only reads are faked');
    if (url.pathname === '/v1/invoices') {
      const data = this.invoices
        .filter((i) => query.get('customer') === null || i.customer === query.get('customer'))
        .sort((a, b) => b.created - a.created);
      return list(url.pathname, data, limit);
    }
    const invoice = /^\/v1\/invoices\/([^/]+)$/.exec(url.pathname);
    if (invoice) {
      const found = this.invoices.find((i) => i.id === decodeURIComponent(invoice[1]!));
      return found
        ? ok(found)
        : error(404, 'invalid_request_error', `No such invoice: '${invoice[1]}'`, 'resource_missing');
    }
    if (url.pathname === '/v1/subscriptions') {
      const data = this.subscriptions
        .filter((s) => query.get('customer') === null || s.customer === query.get('customer'))
        .sort((a, b) => b.created - a.created);
      return list(url.pathname, data, limit);
    }
    const customer = /^\/v1\/customers\/([^/]+)$/.exec(url.pathname);
    if (customer) {
      const cid = decodeURIComponent(customer[1]!);
      return this.customers.has(cid)
        ? ok({ id: cid, object: 'customer', created: this.#clock })
        : error(404, 'invalid_request_error', `No such customer: '${cid}'`, 'resource_missing');
    }
    return error(404, 'invalid_request_error', `Unrecognized request URL (GET: ${url.pathname})`);
  }
}

function ok(body: unknown): Answer {
  return { status: 200, body: JSON.stringify(body) };
}

function list(url: string, data: unknown[], limit: number): Answer {
  return ok({ object: 'list', data: data.slice(0, limit), has_more: data.length > limit, url });
}

function error(status: number, type: string, message: string, code?: string): Answer {
  return { status, body: JSON.stringify({ error: { type, message, ...(code ? { code } : {}) } }) };
}
