// Admin API for SMS (operator.md): the callback URLs to give each provider, and the outbox of the
// `log` provider (full number and text: operator only).
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AdminDeps } from './admin-deps.ts';
import { listSmsOutbox, smsCallbackUrls } from '../sms/index.ts';
import { ADMIN_ERRORS, ADMIN_ROUTE } from './route-kit.ts';

const OutboxQuery = z.object({
  to: z
    .string()
    .regex(/^\+[1-9]\d{1,14}$/, 'must be an E.164 phone number')
    .optional(),
  limit: z.coerce.number().int().min(1).max(1000).default(50),
});

const OutboxSms = z.object({
  id: z.string(),
  to: z.string(),
  from: z.string(),
  text: z.string(),
  createdAt: z.string(),
});
const CallbackUrls = z.object({ twilio: z.string(), africastalking: z.string(), termii: z.string() });

export function registerSmsAdminRoutes(
  app: FastifyInstance,
  deps: Pick<AdminDeps, 'db' | 'secrets' | 'publicUrl'>,
): void {
  const admin = app.withTypeProvider<ZodTypeProvider>();
  const common = ADMIN_ROUTE;
  const errors = ADMIN_ERRORS;

  admin.get(
    '/sms/callback-urls',
    {
      schema: {
        ...common,
        summary: 'The delivery-report URLs to give each SMS provider',
        response: { 200: CallbackUrls, ...errors },
      },
    },
    async () => smsCallbackUrls(deps.publicUrl, deps.secrets),
  );

  admin.get(
    '/sms/outbox',
    {
      schema: {
        ...common,
        summary: 'SMS kept by the log provider, newest first',
        querystring: OutboxQuery,
        response: { 200: z.array(OutboxSms), ...errors },
      },
    },
    async (request) => {
      const rows = await listSmsOutbox(deps.db, request.query);
      return rows.map((row) => ({
        id: row.sms_id,
        to: row.to_number,
        from: row.sender_id,
        text: row.body,
        createdAt: row.created_at.toISOString(),
      }));
    },
  );
}
