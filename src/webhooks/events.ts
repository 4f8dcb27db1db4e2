// Email events fan out to calls by trigger (migration 0013). Events made in code (webhook.test)
// use the same envelope.
export const WEBHOOK_DELIVERY_QUEUE = 'webhook-delivery';

/** The JSON body of a call: the contract's envelope `{type, createdAt, data}`. */
export function eventBody(type: string, createdAt: Date, data: unknown): string {
  return JSON.stringify({ type, createdAt: createdAt.toISOString(), data });
}
