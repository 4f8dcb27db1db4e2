// Admin API for retention (`herald admin retention`): rows and bytes of each partitioned table per
// month, and what the next run removes (src/retention/).
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { retentionPlan } from '../retention/index.ts';
import type { AdminDeps } from './admin-deps.ts';
import { ADMIN_ERRORS, ADMIN_ROUTE } from './route-kit.ts';

const Partition = z.object({
  table: z.string(),
  partition: z.string(),
  month: z.string().describe('YYYY-MM; "before YYYY-MM" for the first partition; "later" for the DEFAULT one'),
  rows: z.number().int().describe("exact below 100,000; above, the planner's estimate"),
  bytes: z.number().int().describe('table, indexes and TOAST on disk'),
  action: z
    .enum(['drop', 'keep', 'held'])
    .describe('drop: the next run removes the month; keep: rows younger than retention; held: rows not yet final'),
  held: z.number().int().optional().describe('rows not yet final (at most 1000 counted), when held'),
});

export function registerRetentionAdminRoutes(
  app: FastifyInstance,
  deps: Pick<AdminDeps, 'db' | 'clock' | 'retention'>,
): void {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/retention',
    {
      schema: {
        ...ADMIN_ROUTE,
        summary: 'Rows and bytes per partitioned table and month, and what the next retention run removes',
        response: {
          200: z.object({
            bodiesDays: z.number().int(),
            eventsDays: z.number().int(),
            webhookCallsDays: z.number().int(),
            partitions: Partition.array(),
          }),
          ...ADMIN_ERRORS,
        },
      },
    },
    async () => retentionPlan(deps.db, deps.clock.now(), deps.retention),
  );
}
