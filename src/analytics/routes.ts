// Analytics (FULL): daily email counts and reputation, read from the counters a trigger on
// email_events keeps (0010_analytics.sql; what is counted is in README.md here).
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { Clock } from '../platform/clock.ts';
import { domainExists } from '../domains/index.ts';
import type { Principal } from '../platform/auth/api-keys.ts';
import { principalOf } from '../platform/auth/plugin.ts';
import { ApiError, notFound } from '../platform/errors.ts';
import { dailyCounts, reputationCounts, type DayCounts } from './queries.ts';
import * as s from './schemas.ts';

type AnalyticsDeps = { db: Kysely<Database>; clock: Clock };

const DAY_MS = 86_400_000;
const ZERO: DayCounts = { sent: 0, delivered: 0, opened: 0, clicked: 0, bounced: 0, complained: 0 };
const utcDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** The last `days` UTC days, oldest first, ending with the day of `now`. */
function lastDays(now: Date, days: number): string[] {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return Array.from({ length: days }, (_, i) => utcDay(today - (days - 1 - i) * DAY_MS));
}

/**
 * What reputation rates divide by: delivered emails once any delivery was reported, else sent ones.
 * Under the relay and log transports nothing is DELIVERED unless a delivery report comes back, so
 * dividing by delivered alone would read every bounce as 0% (issue 22).
 */
const rateBasis = ({ sent, delivered }: { sent: number; delivered: number }) => (delivered > 0 ? delivered : sent);

/** A fraction of the basis; 0 rather than NaN or Infinity when the basis is 0. */
const rateOf = (count: number, basis: number) => (basis === 0 ? 0 : count / basis);

export function registerAnalyticsRoutes(app: FastifyInstance, deps: AnalyticsDeps): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { db, clock } = deps;
  const common = { tags: ['analytics'], security: [{ apiKey: [] }] };
  const errors = { 400: s.ErrorBody, 401: s.ErrorBody, 403: s.ErrorBody, 404: s.ErrorBody, 429: s.ErrorBody };
  const config = { access: 'full' as const };

  /**
   * The domain to count, or null for every domain. A key limited to one domain counts that domain
   * (as GET /v1/emails lists only its emails) and asking for another is 403, as on the domain
   * routes; another team's or an unknown domain answers 404 like a missing one.
   */
  async function domainScope(principal: Principal, requested: number | undefined): Promise<number | null> {
    if (principal.domainId !== null) {
      if (requested !== undefined && requested !== principal.domainId) {
        throw new ApiError(403, 'FORBIDDEN', 'This key is limited to another domain and has no access to this one');
      }
      return principal.domainId;
    }
    if (requested === undefined) return null;
    if (!(await domainExists(db, principal.teamId, requested))) throw notFound('Domain');
    return requested;
  }

  api.get(
    '/v1/analytics/email-time-series',
    {
      config,
      schema: {
        ...common,
        summary: 'Emails sent, delivered, opened, clicked, bounced and complained per UTC day',
        description:
          'One entry per day for the last `days` UTC days ending today, days without mail included (zeros). ' +
          'Each count is of emails, on the day of its first event of that kind: `sent` counts an email once when a relay or ' +
          "the recipient's server took it; a second open of the same email is not counted again.",
        querystring: s.TimeSeriesQuery,
        response: { 200: s.TimeSeries, ...errors },
      },
    },
    async (request) => {
      const principal = principalOf(request);
      const domainId = await domainScope(principal, request.query.domainId);
      const days = lastDays(clock.now(), Number(request.query.days));
      const counts = await dailyCounts(db, principal.teamId, days[0]!, days.at(-1)!, domainId);
      const result = days.map((date) => ({ date, ...(counts.get(date) ?? ZERO) }));
      const totalCounts = { ...ZERO };
      for (const day of result)
        for (const key of Object.keys(ZERO) as (keyof DayCounts)[]) totalCounts[key] += day[key];
      return { result, totalCounts };
    },
  );

  api.get(
    '/v1/analytics/reputation-metrics',
    {
      config,
      schema: {
        ...common,
        summary: 'Delivered, hard-bounced and complained emails over all time, with bounce and complaint rates',
        description:
          'bounceRate = hardBounced / N and complaintRate = complained / N, as fractions (0.02 is 2%). ' +
          'N is `delivered` when at least one delivery was reported in the scope asked for (the team, or the ' +
          '`domainId`), else the number of emails sent (taken by a relay or the log transport; not a field of the ' +
          'response), because the relay and log transports record DELIVERED only when a delivery report comes ' +
          'back. Both rates are 0 when N is 0.',
        querystring: s.ReputationQuery,
        response: { 200: s.ReputationMetrics, ...errors },
      },
    },
    async (request) => {
      const principal = principalOf(request);
      const domainId = await domainScope(principal, request.query.domainId);
      const counts = await reputationCounts(db, principal.teamId, domainId);
      const { delivered, hardBounced, complained } = counts;
      const basis = rateBasis(counts);
      return {
        delivered,
        hardBounced,
        complained,
        bounceRate: rateOf(hardBounced, basis),
        complaintRate: rateOf(complained, basis),
      };
    },
  );
}
