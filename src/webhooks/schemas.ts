// Request and response schemas of the Webhooks endpoints (contract: "Webhook", "Webhook call",
// "Webhooks (FULL)", Limits).
import { z } from 'zod';
import { cursorParam, limitParam } from '../platform/pagination.ts';
import { EVENT_TYPES } from './event-catalogue.ts';

const URL_MAX = 2_048;
export const DESCRIPTION_MAX = 500;
const CALL_LIST_LIMIT_MAX = 50;
const CALL_LIST_LIMIT_DEFAULT = 20;
// Not in the contract: bounds that keep a webhook row and its fan-out small.
const EVENT_TYPES_MAX = EVENT_TYPES.length;
const DOMAIN_IDS_MAX = 100;

const WEBHOOK_STATUSES = ['ACTIVE', 'PAUSED', 'AUTO_DISABLED'] as const;
const CALL_STATUSES = ['PENDING', 'IN_PROGRESS', 'DELIVERED', 'FAILED', 'DISCARDED'] as const;

export const ErrorBody = z.object({ error: z.object({ code: z.string(), message: z.string() }) });

const WebhookUrl = z
  .string()
  .min(1)
  .max(URL_MAX)
  .describe(`https URL with a public hostname, at most ${URL_MAX} characters; checked again before every delivery`);
const EventTypes = z
  .array(z.enum(EVENT_TYPES as [string, ...string[]]))
  .max(EVENT_TYPES_MAX)
  .describe('event types to receive; an empty list means every event');
const DomainIds = z
  .array(z.number().int().positive().max(2_147_483_647))
  .max(DOMAIN_IDS_MAX)
  .describe("the team's domain ids whose events to receive; an empty list means every domain");
const Description = z.string().max(DESCRIPTION_MAX);

export const CreateWebhookBody = z.object({
  url: WebhookUrl,
  eventTypes: EventTypes,
  description: Description.optional(),
  domainIds: DomainIds.optional(),
});

export const UpdateWebhookBody = z.object({
  url: WebhookUrl.optional(),
  eventTypes: EventTypes.optional(),
  description: Description.nullable().optional().describe('null clears it'),
  domainIds: DomainIds.optional(),
});

export const StatusBody = z.object({ status: z.enum(['ACTIVE', 'PAUSED']) });

export const WebhookParams = z.object({ webhookId: z.string().min(1).max(64) });
export const CallParams = z.object({ callId: z.string().min(1).max(64) });

const Last24h = z.object({
  ok: z.number().int().describe('calls delivered'),
  retried: z.number().int().describe("attempts beyond each call's first"),
  failed: z.number().int().describe('calls that ran out of attempts or were dropped'),
});

export const Webhook = z
  .object({
    id: z.string(),
    url: z.string(),
    description: z.string().nullable(),
    status: z.enum(WEBHOOK_STATUSES),
    eventTypes: z.array(z.string()),
    domainIds: z.array(z.number().int()),
    apiVersion: z.string().nullable(),
    consecutiveFailures: z.number().int(),
    lastFailureAt: z.string().nullable(),
    lastSuccessAt: z.string().nullable(),
    secretHint: z.string().describe('the signing secret, masked'),
    createdAt: z.string(),
    updatedAt: z.string(),
    secret: z
      .string()
      .optional()
      .describe('the signing secret (whsec_…); only in the create and rotate-secret responses'),
    last24h: Last24h.optional().describe('only in the list response'),
  })
  .meta({ id: 'Webhook' });

export const WebhookList = z.object({ data: z.array(Webhook) });

export const DeletedWebhook = z.object({ id: z.string(), deleted: z.boolean() });
export const CallAccepted = z.object({ callId: z.string() });

export const CallListQuery = z.object({
  webhookId: z.string().min(1).max(64).optional(),
  status: z.enum(CALL_STATUSES).optional(),
  limit: limitParam(CALL_LIST_LIMIT_MAX, CALL_LIST_LIMIT_DEFAULT),
  cursor: cursorParam,
});

export const WebhookCall = z
  .object({
    id: z.string().describe('also the webhook-id header of every attempt'),
    webhookId: z.string(),
    type: z.string(),
    status: z.enum(CALL_STATUSES),
    attempt: z.number().int().describe('attempts made so far'),
    nextAttemptAt: z.string().nullable(),
    lastError: z.string().nullable(),
    responseStatus: z.number().int().nullable(),
    responseTimeMs: z.number().int().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: 'WebhookCall' });

export const WebhookCallDetail = WebhookCall.extend({
  apiVersion: z.string().nullable(),
  payload: z.string().describe('the request body as sent: the event as JSON text (see WebhookEventPayload)'),
  responseText: z.string().nullable().describe("first 2 KB of the endpoint's response body"),
}).meta({ id: 'WebhookCallDetail' });

export const CallList = z.object({ data: z.array(WebhookCall), nextCursor: z.string().nullable() });

/** What every webhook route's schema shares (webhook-routes.ts, webhook-action-routes.ts, call-routes.ts). */
export const WEBHOOK_ROUTE = { tags: ['webhooks'], security: [{ apiKey: [] }] };
export const WEBHOOK_ERRORS = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 429: ErrorBody };
