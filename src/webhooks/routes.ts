// The Webhooks area's endpoints.
import type { FastifyInstance } from 'fastify';
import { registerCallRoutes } from './call-routes.ts';
import { registerWebhookActions } from './webhook-action-routes.ts';
import { registerWebhookManagement, type WebhookRouteDeps } from './webhook-routes.ts';

export function registerWebhookRoutes(app: FastifyInstance, deps: WebhookRouteDeps): void {
  // The call routes first: /v1/webhooks/calls must not be read as a webhook id.
  registerCallRoutes(app, deps);
  registerWebhookManagement(app, deps);
  registerWebhookActions(app, deps);
}
