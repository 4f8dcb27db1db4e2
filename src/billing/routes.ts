// The billing reads, in one scope whose hooks apply the per-minute limits and write the audit log
// (read-scope.ts); the audit log read itself sits outside that scope.
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { createStripeCardProcessor, type CardProcessor, type StripeOptions } from '../adapters/card-processor/index.ts';
import type { Clock } from '../platform/clock.ts';
import type { Secrets } from '../platform/crypto.ts';
import type { PriceList } from '../platform/price-list.ts';
import { registerAuditRoutes } from './audit-routes.ts';
import { CardCache } from './card-cache.ts';
import { registerCardRoutes } from './card-routes.ts';
import { registerLedgerRoutes } from './ledger-routes.ts';
import { useBillingReadHooks, type ReadScopeDeps } from './read-scope.ts';
import { registerUsageRoutes } from './usage-routes.ts';

/** What the billing routes use, built in app.ts. */
export interface BillingDeps extends ReadScopeDeps {
  /** Where the ledger and usage reads run (a replica when set, app.ts); the audit rows use `db`. */
  reads: Kysely<Database>;
  secrets: Secrets;
  prices: PriceList;
  /** Contract, Limits: a read longer than this answers 422. */
  readTimeoutMs: number;
}

/** What the billing routes and the Stripe hook share in one process. */
export interface BillingParts {
  cardProcessor: CardProcessor;
  cache: CardCache;
}

export function billingParts(stripe: StripeOptions, clock: Clock): BillingParts {
  return { cardProcessor: createStripeCardProcessor(stripe), cache: new CardCache(clock) };
}

export function registerBillingRoutes(app: FastifyInstance, deps: BillingDeps, parts: BillingParts): void {
  const { readTimeoutMs, prices } = deps;
  void app.register(async (scope) => {
    useBillingReadHooks(scope, deps);
    registerLedgerRoutes(scope, { db: deps.reads, secrets: deps.secrets, readTimeoutMs });
    registerUsageRoutes(scope, { db: deps.reads, clock: deps.clock, prices, readTimeoutMs });
    registerCardRoutes(scope, { db: deps.db, clock: deps.clock, prices, ...parts });
  });
  registerAuditRoutes(app, deps);
}
