// POST /hooks/stripe (operator.md, optional): Stripe events about invoices and subscriptions, trusted
// by their Stripe-Signature with HERALD_STRIPE_WEBHOOK_SECRET (unset: 404). An event drops what the
// billing reads keep for the customer's team, so the next read asks Stripe again; a completed card
// checkout or a new live subscription also makes that team Pro by card (card-checkout-events.ts).
// Duplicates and events out of order change nothing more than that.
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { verifyCardEvent } from '../adapters/card-processor/index.ts';
import type { Database } from '../db/schema.ts';
import type { Clock } from '../platform/clock.ts';
import { ApiError } from '../platform/errors.ts';
import type { PriceList } from '../platform/price-list.ts';
import { applyCardPlanEvent } from './card-checkout-events.ts';
import type { CardCache } from './card-cache.ts';
import { teamsOfStripeCustomer } from './team-billing-queries.ts';

const BODY_LIMIT = 512 * 1024;

export function stripeHookRoutes(deps: {
  db: Kysely<Database>;
  clock: Clock;
  webhookSecret: string | null;
  cache: CardCache;
  prices: PriceList;
}) {
  return async (scope: FastifyInstance) => {
    // The signature covers the exact bytes.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'string', bodyLimit: BODY_LIMIT }, (_request, body, done) =>
      done(null, body),
    );
    scope.post('/hooks/stripe', { config: { access: 'public' } }, async (request) => {
      if (deps.webhookSecret === null) throw new ApiError(404, 'NOT_FOUND', 'Not found');
      const header = request.headers['stripe-signature'];
      const body = typeof request.body === 'string' ? request.body : '';
      const event =
        typeof header === 'string' ? await verifyCardEvent(deps.webhookSecret, body, header, deps.clock.now()) : null;
      if (!event) throw new ApiError(400, 'BAD_REQUEST', 'The Stripe-Signature is missing or not valid');
      const interesting = event.type.startsWith('invoice.') || event.type.startsWith('customer.');
      if (interesting && event.customerId !== null) {
        for (const teamId of await teamsOfStripeCustomer(deps.db, event.customerId)) deps.cache.dropTeam(teamId);
      }
      const moved = await applyCardPlanEvent({ ...deps, now: deps.clock.now() }, body, event.customerId);
      for (const teamId of moved) deps.cache.dropTeam(teamId);
      return { received: true };
    });
  };
}
