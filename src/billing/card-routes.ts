// GET /v1/billing/invoices, /invoices/{id} and /subscription: what the card processor holds for the
// team (its stripeCustomerId). Unreachable or failing: 503 SERVICE_UNAVAILABLE. A Pro month paid
// from the wallet is a receipt, not an invoice.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { CardProcessorUnavailable, type CardInvoice, type CardProcessor } from '../adapters/card-processor/index.ts';
import { principalOf } from '../platform/auth/plugin.ts';
import type { Clock } from '../platform/clock.ts';
import { ApiError, badRequest, notFound } from '../platform/errors.ts';
import type { PriceList } from '../platform/price-list.ts';
import type { CardCache } from './card-cache.ts';
import { Subscription } from './plan-schemas.ts';
import * as s from './schemas.ts';
import { billingTeam, readSubscription } from './subscription.ts';

/** Contract, Limits: invoices listed, the latest 12. */
export const INVOICES_LISTED = 12;
const INVOICE_ID = /^in_[A-Za-z0-9]{1,250}$/;

export interface CardRouteDeps {
  db: Kysely<Database>;
  clock: Clock;
  prices: PriceList;
  cardProcessor: CardProcessor;
  cache: CardCache;
}

async function fromCardProcessor<T>(request: FastifyRequest, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof CardProcessorUnavailable) {
      // The 503 is a chosen answer, which the error handler does not log: say why here, no stack.
      request.log.warn({ reason: error.message }, 'card processor unavailable');
      throw new ApiError(503, 'SERVICE_UNAVAILABLE', 'The card processor cannot be reached; retry shortly');
    }
    throw error;
  }
}

const invoiceView = (invoice: CardInvoice) => ({
  id: invoice.id,
  number: invoice.number,
  createdAt: invoice.createdAt.toISOString(),
  amountDue: invoice.amountDue,
  amountPaid: invoice.amountPaid,
  currency: invoice.currency,
  status: invoice.status,
});

export function registerCardRoutes(app: FastifyInstance, deps: CardRouteDeps): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const common = { tags: ['billing'], security: [{ apiKey: [] }] };
  const errors = { 400: s.ErrorBody, 401: s.ErrorBody, 403: s.ErrorBody, 429: s.ErrorBody, 503: s.ErrorBody };

  api.get(
    '/v1/billing/invoices',
    {
      config: { access: 'billingRead', invoiceRead: true },
      schema: {
        ...common,
        summary: "List the card processor's invoices, newest first",
        description: `The latest ${INVOICES_LISTED}; empty for a team the card processor never billed. No pay or download link.`,
        response: { 200: s.InvoiceList, ...errors },
      },
    },
    async (request) => {
      const { teamId } = principalOf(request);
      const team = await billingTeam(deps.db, teamId);
      const customer = team.stripeCustomerId;
      if (customer === null) return { data: [] };
      const invoices = await fromCardProcessor(request, () =>
        deps.cache.get(`invoices:${teamId}:${customer}`, () =>
          deps.cardProcessor.listInvoices(customer, INVOICES_LISTED),
        ),
      );
      return { data: invoices.slice(0, INVOICES_LISTED).map(invoiceView) };
    },
  );

  api.get(
    '/v1/billing/invoices/:id',
    {
      config: { access: 'billingRead', invoiceRead: true },
      schema: {
        ...common,
        summary: 'Read one invoice of the card processor',
        description: "id: the card processor's invoice id (in_…); 400 for anything else, 404 for another customer's.",
        params: s.InvoiceParams,
        response: { 200: s.Invoice, 404: s.ErrorBody, ...errors },
      },
    },
    async (request) => {
      const { teamId } = principalOf(request);
      const { id } = request.params;
      if (!INVOICE_ID.test(id)) throw badRequest('id: must be an invoice id of the card processor (in_…)');
      const team = await billingTeam(deps.db, teamId);
      const customer = team.stripeCustomerId;
      if (customer === null) throw notFound('invoice');
      const invoice = await fromCardProcessor(request, () =>
        deps.cache.get(`invoice:${teamId}:${id}`, () => deps.cardProcessor.getInvoice(id)),
      );
      if (invoice === null || invoice.customerId !== customer) throw notFound('invoice');
      return invoiceView(invoice);
    },
  );

  api.get(
    '/v1/billing/subscription',
    {
      config: { access: 'billingRead' },
      schema: {
        ...common,
        summary: 'Read the plan and how it is paid',
        description:
          'stripe: the card subscription from the card processor for a team billed by card (null otherwise); wallet: the Pro months paid from the wallet; the plan is changed in the dashboard only.',
        response: { 200: Subscription, ...errors },
      },
    },
    async (request) => {
      const { teamId } = principalOf(request);
      const team = await billingTeam(deps.db, teamId);
      const customer = team.stripeCustomerId;
      const card =
        team.billingMethod === 'card' && customer !== null
          ? await fromCardProcessor(request, () =>
              deps.cache.get(`subscription:${teamId}:${customer}`, () => deps.cardProcessor.getSubscription(customer)),
            )
          : null;
      return readSubscription(deps.db, teamId, team, card, deps.prices);
    },
  );
}
