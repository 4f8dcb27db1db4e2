// The call log (contract: "Webhooks (FULL)"): list and read calls, and retry a failed or dropped one.
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { principalOf } from '../platform/auth/plugin.ts';
import { ApiError, notFound } from '../platform/errors.ts';
import { cursorPage, decodeCursor, encodeCursor } from '../platform/pagination.ts';
import { notifyQueue } from '../queue/index.ts';
import { WEBHOOK_DELIVERY_QUEUE } from './events.ts';
import { PER_MINUTE } from './per-minute.ts';
import { enforcePerMinute } from './per-minute.ts';
import * as q from './queries.ts';
import * as s from './schemas.ts';
import { callDetailView, callView } from './view.ts';
import type { WebhookRouteDeps } from './webhook-routes.ts';

const CALL_LIST = 'webhook-calls';

export function registerCallRoutes(app: FastifyInstance, deps: WebhookRouteDeps): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { db, clock, secrets } = deps;
  const common = s.WEBHOOK_ROUTE;
  const errors = s.WEBHOOK_ERRORS;

  api.get(
    '/v1/webhooks/calls',
    {
      config: { access: 'webhookRead' },
      schema: {
        ...common,
        summary: "List the team's webhook calls, newest first",
        description: 'Calls are kept for 30 days. A cursor from another list or team answers 400.',
        querystring: s.CallListQuery,
        response: { 200: s.CallList, ...errors },
      },
    },
    async (request) => {
      const { teamId } = principalOf(request);
      const { webhookId, status, limit, cursor } = request.query;
      const after = cursor === undefined ? undefined : decodeCursor(secrets, cursor, CALL_LIST, teamId);
      const rows = await q.listCalls(db, teamId, { webhookId, status, after }, limit);
      const page = cursorPage(rows, limit, (last) =>
        encodeCursor(secrets, CALL_LIST, teamId, [last.created_at.toISOString(), last.id]),
      );
      return { data: page.data.map(callView), nextCursor: page.nextCursor };
    },
  );

  api.get(
    '/v1/webhooks/calls/:callId',
    {
      config: { access: 'webhookRead' },
      schema: {
        ...common,
        summary: 'Get a webhook call with its payload and the start of the response',
        params: s.CallParams,
        response: { 200: s.WebhookCallDetail, ...errors },
      },
    },
    async (request) => {
      const row = await q.getCall(db, principalOf(request).teamId, request.params.callId);
      if (!row) throw notFound('Webhook call');
      return callDetailView(row);
    },
  );

  api.post(
    '/v1/webhooks/calls/:callId/retry',
    {
      config: { access: 'webhookRetry' },
      schema: {
        ...common,
        summary: 'Send a failed or dropped call again',
        description: `Same event data, the webhook's saved URL, a fresh set of attempts. A delivered call or one still being delivered answers 409 CONFLICT. At most ${PER_MINUTE.retries} retries a minute.`,
        params: s.CallParams,
        response: { 202: s.CallAccepted, 409: s.ErrorBody, ...errors },
      },
    },
    async (request, reply) => {
      const { teamId } = principalOf(request);
      await enforcePerMinute(deps.rateLimiter, reply, teamId, 'webhook-retries', PER_MINUTE.retries);
      const now = clock.now();
      const requeued = await db.transaction().execute(async (tx) => {
        const row = await q.requeueCall(tx, teamId, request.params.callId, now);
        if (row) await notifyQueue(tx, WEBHOOK_DELIVERY_QUEUE);
        return row;
      });
      if (!requeued) {
        const existing = await q.getCall(db, teamId, request.params.callId);
        if (!existing) throw notFound('Webhook call');
        throw new ApiError(
          409,
          'CONFLICT',
          existing.status === 'DELIVERED' ? 'The call was delivered' : 'The call is still being delivered',
        );
      }
      return reply.code(202).send({ callId: requeued.id });
    },
  );
}
