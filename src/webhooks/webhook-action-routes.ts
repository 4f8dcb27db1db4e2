// Actions on an existing webhook (contract: "Webhooks (FULL)"): pause or resume, a test event, and
// a new signing secret. Each needs a full access key made by a team admin (policy `webhookManage`).
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { principalOf } from '../platform/auth/plugin.ts';
import { notFound } from '../platform/errors.ts';
import { notifyQueue } from '../queue/index.ts';
import { WEBHOOK_DELIVERY_QUEUE } from './events.ts';
import { enforcePerMinute, PER_MINUTE } from './per-minute.ts';
import * as q from './queries.ts';
import { recordEvent } from './record-event.ts';
import * as s from './schemas.ts';
import { newSigningSecret, secretHint } from './signing.ts';
import { webhookView } from './view.ts';
import type { WebhookRouteDeps } from './webhook-routes.ts';

export function registerWebhookActions(app: FastifyInstance, deps: WebhookRouteDeps): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { db, clock, secrets } = deps;
  const common = s.WEBHOOK_ROUTE;
  const errors = s.WEBHOOK_ERRORS;
  const manage = { access: 'webhookManage' as const };

  api.post(
    '/v1/webhooks/:webhookId/status',
    {
      config: manage,
      schema: {
        ...common,
        summary: 'Pause a webhook or turn it on again',
        description:
          'PAUSED: events stop being sent (pending calls wait). ACTIVE: consecutiveFailures is reset to 0 and events are sent again.',
        params: s.WebhookParams,
        body: s.StatusBody,
        response: { 200: s.Webhook, ...errors },
      },
    },
    async (request) => {
      const { teamId } = principalOf(request);
      const now = clock.now();
      const row = await db.transaction().execute(async (tx) => {
        const current = await q.lockWebhook(tx, teamId, request.params.webhookId);
        if (!current) throw notFound('Webhook');
        const active = request.body.status === 'ACTIVE';
        const updated = await q.updateWebhook(
          tx,
          teamId,
          current.id,
          active ? { status: 'ACTIVE', consecutive_failures: 0, failing_since: null } : { status: 'PAUSED' },
          now,
        );
        // Calls that waited while it was paused are due again.
        if (active) await notifyQueue(tx, WEBHOOK_DELIVERY_QUEUE);
        return updated;
      });
      return webhookView(row);
    },
  );

  api.post(
    '/v1/webhooks/:webhookId/test',
    {
      config: manage,
      schema: {
        ...common,
        summary: 'Queue a webhook.test event to the saved URL, signed like a real event',
        description: `At most ${PER_MINUTE.tests} test events a minute. No URL is accepted: the event goes to the webhook's saved URL.`,
        params: s.WebhookParams,
        response: { 202: s.CallAccepted, ...errors },
      },
    },
    async (request, reply) => {
      const { teamId } = principalOf(request);
      await enforcePerMinute(deps.rateLimiter, reply, teamId, 'webhook-tests', PER_MINUTE.tests);
      const now = clock.now();
      const callId = await db.transaction().execute(async (tx) => {
        const webhook = await q.getWebhook(tx, teamId, request.params.webhookId);
        if (!webhook) throw notFound('Webhook');
        // To this webhook only, whatever its status and subscriptions.
        const [made] = await recordEvent(
          tx,
          {
            teamId,
            type: 'webhook.test',
            domainId: null,
            data: { webhookId: webhook.id, message: 'This is a test event from Herald.' },
            at: now,
          },
          { webhookId: webhook.id },
        );
        return made!;
      });
      return reply.code(202).send({ callId });
    },
  );

  api.post(
    '/v1/webhooks/:webhookId/rotate-secret',
    {
      config: manage,
      schema: {
        ...common,
        summary: 'Replace the signing secret',
        description: `The old secret stops at once: every attempt from now on, retries included, is signed with the new one. At most ${PER_MINUTE.rotations} rotations a minute.`,
        params: s.WebhookParams,
        response: { 200: s.Webhook, ...errors },
      },
    },
    async (request, reply) => {
      const { teamId } = principalOf(request);
      await enforcePerMinute(deps.rateLimiter, reply, teamId, 'webhook-rotations', PER_MINUTE.rotations);
      const secret = newSigningSecret();
      const now = clock.now();
      const row = await db.transaction().execute(async (tx) => {
        const current = await q.lockWebhook(tx, teamId, request.params.webhookId);
        if (!current) throw notFound('Webhook');
        return q.updateWebhook(
          tx,
          teamId,
          current.id,
          { secret_sealed: secrets.encrypt(secret), secret_hint: secretHint(secret) },
          now,
        );
      });
      return webhookView(row, { secret });
    },
  );
}
