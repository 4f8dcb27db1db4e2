// GET /v1/billing/usage and /v1/billing/pricing: full access, read only or live AI keys, domain-limited
// ones included.
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { principalOf } from '../platform/auth/plugin.ts';
import type { Clock } from '../platform/clock.ts';
import type { PriceList } from '../platform/price-list.ts';
import { PriceListRead, Usage } from './plan-schemas.ts';
import { priceListView } from './pricing.ts';
import { withReadDeadline } from './read-deadline.ts';
import * as s from './schemas.ts';
import { billingTeam } from './subscription.ts';
import { readUsage } from './usage.ts';

export interface UsageRouteDeps {
  db: Kysely<Database>;
  clock: Clock;
  prices: PriceList;
  readTimeoutMs: number;
}

export function registerUsageRoutes(app: FastifyInstance, deps: UsageRouteDeps): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const common = { tags: ['billing'], security: [{ apiKey: [] }] };
  const errors = { 401: s.ErrorBody, 403: s.ErrorBody, 429: s.ErrorBody, 503: s.ErrorBody };

  api.get(
    '/v1/billing/usage',
    {
      config: { access: 'billingUsage' },
      schema: {
        ...common,
        summary: 'Read usage against the plan',
        description:
          'Calendar month (UTC) and today from counters; limits of the plan enforced today (-1 and unlimited where there is none). textSpendFormatted only for a key made by a team admin and not limited to one domain.',
        response: { 200: Usage, 422: s.ErrorBody, ...errors },
      },
    },
    async (request) => {
      const principal = principalOf(request);
      return withReadDeadline(deps.db, deps.readTimeoutMs, (tx) =>
        readUsage(tx, principal, deps.prices, deps.clock.now()),
      );
    },
  );

  api.get(
    '/v1/billing/pricing',
    {
      config: { access: 'billingUsage' },
      schema: {
        ...common,
        summary: 'Read the price list in the team billing currency',
        description:
          'Prices per message in millionths of the major unit (a null cell: on request); pro.configured is false for a currency not priced yet.',
        response: { 200: PriceListRead, ...errors },
      },
    },
    async (request) => {
      const team = await billingTeam(deps.db, principalOf(request).teamId);
      return priceListView(deps.prices, team.currency);
    },
  );
}
