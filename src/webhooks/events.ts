// The queue every webhook call waits in, and the JSON body of a call made in code (recordEvent).
// Email events' set-based writers build it with this too (src/emails/views.ts).
export const WEBHOOK_DELIVERY_QUEUE = 'webhook-delivery';

/** The JSON body of a call: the contract's envelope `{type, createdAt, data}`. */
export function eventBody(type: string, createdAt: Date, data: unknown): string {
  return JSON.stringify({ type, createdAt: createdAt.toISOString(), data });
}
