// Admin API for direct delivery: the destinations (recipient domains' MX host sets) that are backed
// off now, and why (`herald admin destinations`).
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { listDestinationBackoffs } from '../destinations/index.ts';
import type { AdminDeps } from './admin-deps.ts';
import { ADMIN_ERRORS, ADMIN_ROUTE } from './route-kit.ts';

const BackedOffDestination = z.object({
  destination: z.string().describe('the MX hosts, in priority order; "(MTA-STS …)" when a policy applies'),
  paused: z.boolean().describe('no new message is offered before pausedUntil'),
  pausedUntil: z.string(),
  connections: z.number().int().describe('the connection limit while it recovers'),
  openConnections: z.number().int().describe('sessions the deployment holds to it now'),
  failures: z.number().int().describe('pauses in a row; each doubles the next'),
  reason: z.string().describe('the answer or failure that backed it off'),
  updatedAt: z.string(),
});

export function registerDestinationAdminRoutes(app: FastifyInstance, deps: Pick<AdminDeps, 'db' | 'clock'>): void {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/destinations',
    {
      schema: {
        ...ADMIN_ROUTE,
        summary: 'Direct-delivery destinations that are backed off, and why',
        response: { 200: z.object({ data: BackedOffDestination.array() }), ...ADMIN_ERRORS },
      },
    },
    async () => {
      const now = deps.clock.now();
      const rows = await listDestinationBackoffs(deps.db, now);
      return {
        data: rows.map((row) => ({
          destination: row.destination,
          paused: row.paused_until > now,
          pausedUntil: row.paused_until.toISOString(),
          connections: row.connections,
          openConnections: Number(row.open_connections ?? 0),
          failures: row.failures,
          reason: row.reason,
          updatedAt: row.updated_at.toISOString(),
        })),
      };
    },
  );
}
