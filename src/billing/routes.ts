// The billing reads, in one scope whose hooks apply the per-minute limits and write the audit log
// (read-scope.ts); the audit log read itself sits outside that scope.
import type { FastifyInstance } from 'fastify';
import { createStripeCardProcessor, type CardProcessor } from '../adapters/card-processor/index.ts';
import type { Deps } from '../deps.ts';
import { registerAuditRoutes } from './audit-routes.ts';
import { CardCache } from './card-cache.ts';
import { registerCardRoutes } from './card-routes.ts';
import { registerLedgerRoutes } from './ledger-routes.ts';
import { useBillingReadHooks } from './read-scope.ts';
import { registerUsageRoutes } from './usage-routes.ts';

type BillingDeps = Pick<Deps, 'config' | 'db' | 'clock' | 'logger' | 'secrets' | 'rateLimiter' | 'principals'>;

/** What the billing routes and the Stripe hook share in one process. */
export interface BillingParts {
  cardProcessor: CardProcessor;
  cache: CardCache;
}

export function billingParts(deps: Pick<Deps, 'config' | 'clock'>): BillingParts {
  return { cardProcessor: createStripeCardProcessor(deps.config.stripe), cache: new CardCache(deps.clock) };
}

export function registerBillingRoutes(
  app: FastifyInstance,
  deps: BillingDeps,
  parts: BillingParts = billingParts(deps),
): void {
  const readTimeoutMs = deps.config.billingReadTimeoutMs;
  const prices = deps.config.prices;
  void app.register(async (scope) => {
    useBillingReadHooks(scope, deps);
    registerLedgerRoutes(scope, { db: deps.db, secrets: deps.secrets, readTimeoutMs });
    registerUsageRoutes(scope, { db: deps.db, clock: deps.clock, prices, readTimeoutMs });
    registerCardRoutes(scope, { db: deps.db, clock: deps.clock, prices, ...parts });
  });
  registerAuditRoutes(app, deps);
}
