// Admin API: inbound messages kept as failed (unreadable, or out of attempts), with their originals.
// The listener answered 250 for each, so none is dropped silently (src/mx/README.md).
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AdminDeps } from './admin-deps.ts';
import { failedInboundRaw, listFailedInbound } from '../mx/index.ts';
import { notFound } from '../platform/errors.ts';
import { ADMIN_ERRORS, ADMIN_ROUTE } from './route-kit.ts';

const SpoolId = z.string().regex(/^\d{1,18}$/, 'an inbound message id (digits)');
const FailedQuery = z.object({
  limit: z.coerce.number().int().min(1).max(500).default(50),
  before: SpoolId.optional().describe('an id: the failures older than it (paging)'),
});
const FailedInbound = z.object({
  id: z.string(),
  receivedAt: z.string(),
  failedAt: z.string(),
  mailFrom: z.string().describe("the envelope sender; '' for the null sender"),
  rcptTo: z.array(z.string()),
  remoteAddress: z.string(),
  sizeBytes: z.number().int(),
  attempts: z.number().int(),
  error: z.string().nullable(),
});

export function registerInboundAdminRoutes(app: FastifyInstance, deps: Pick<AdminDeps, 'db'>): void {
  const admin = app.withTypeProvider<ZodTypeProvider>();
  const { db } = deps;

  admin.get(
    '/inbound/failed',
    {
      schema: {
        ...ADMIN_ROUTE,
        summary: 'Inbound messages kept as failed (unreadable, or no attempt could take them), newest first',
        querystring: FailedQuery,
        response: { 200: FailedInbound.array(), ...ADMIN_ERRORS },
      },
    },
    async (request) => {
      const failed = await listFailedInbound(db, request.query.limit, request.query.before ?? null);
      return failed.map((m) => ({
        ...m,
        receivedAt: m.receivedAt.toISOString(),
        failedAt: m.failedAt.toISOString(),
      }));
    },
  );

  admin.get(
    '/inbound/failed/:id/raw',
    {
      schema: {
        ...ADMIN_ROUTE,
        summary: 'The original of a failed inbound message, exactly as received (message/rfc822)',
        params: z.object({ id: SpoolId }),
        // 200 is the file itself (message/rfc822), not JSON.
        response: { ...ADMIN_ERRORS },
      },
    },
    async (request, reply) => {
      const raw = await failedInboundRaw(db, request.params.id);
      if (raw === null) throw notFound('failed inbound message');
      return (
        reply
          .type('message/rfc822')
          .header('content-disposition', `attachment; filename="inbound-${request.params.id}.eml"`)
          .header('x-content-type-options', 'nosniff')
          // A Buffer is sent as is (Fastify serialises only objects); the schemas above are the errors'.
          .send(raw as never)
      );
    },
  );
}
