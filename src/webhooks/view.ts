// Rows to the contract's Webhook and Webhook call shapes.
import type { z } from 'zod';
import type { CallRow, Last24hCounts, WebhookRow } from './queries.ts';
import type { Webhook, WebhookCall, WebhookCallDetail } from './schemas.ts';

const iso = (at: Date | null) => (at === null ? null : at.toISOString());

export function webhookView(
  row: WebhookRow,
  extra: { secret?: string; last24h?: Last24hCounts } = {},
): z.infer<typeof Webhook> {
  return {
    id: row.id,
    url: row.url,
    description: row.description,
    status: row.status,
    eventTypes: row.event_types,
    domainIds: row.domain_ids,
    apiVersion: row.api_version,
    consecutiveFailures: row.consecutive_failures,
    lastFailureAt: iso(row.last_failure_at),
    lastSuccessAt: iso(row.last_success_at),
    secretHint: row.secret_hint,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    ...(extra.secret === undefined ? {} : { secret: extra.secret }),
    ...(extra.last24h === undefined
      ? {}
      : { last24h: { ok: extra.last24h.ok, retried: extra.last24h.retried, failed: extra.last24h.failed } }),
  };
}

export function callView(row: CallRow): z.infer<typeof WebhookCall> {
  return {
    id: row.id,
    webhookId: row.webhook_id,
    type: row.type,
    status: row.status,
    attempt: row.attempt,
    nextAttemptAt: row.status === 'PENDING' ? iso(row.next_attempt_at) : null,
    lastError: row.last_error,
    responseStatus: row.response_status,
    responseTimeMs: row.response_time_ms,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

export function callDetailView(row: CallRow): z.infer<typeof WebhookCallDetail> {
  return { ...callView(row), apiVersion: row.api_version, payload: row.payload, responseText: row.response_text };
}
