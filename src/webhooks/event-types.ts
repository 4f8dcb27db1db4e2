// Every event type Herald emits and the shape of each payload (contract: Events, "the full list of
// event type names: not shown"; these are Herald's). Published in the OpenAPI document through
// the webhook schemas and in docs/webhooks.md.
import { z } from 'zod';
import { EMAIL_STATUSES } from '../emails/index.ts';

/** email.<status in lower case> for every email status, e.g. email.delivery_delayed. */
export const EMAIL_EVENT_TYPES = EMAIL_STATUSES.map((status) => `email.${status.toLowerCase()}`);

export const EVENT_TYPES: readonly string[] = [...EMAIL_EVENT_TYPES, 'webhook.test'];

export const EventType = z.enum(EVENT_TYPES as [string, ...string[]]);

/** The envelope every call carries as its body; `data` depends on the type. */
export const EmailEventData = z
  .object({
    emailId: z.string().describe('the id returned when the email was sent'),
    domainId: z.number().int().nullable().describe('the sending domain; domainIds filters match on it'),
    status: z.string().describe('the email status this event records (upper case)'),
    from: z.string(),
    to: z.union([z.string(), z.array(z.string())]),
    subject: z.string(),
    emailCreatedAt: z.string().describe('when the email was sent (ISO 8601)'),
    details: z
      .unknown()
      .nullable()
      .describe('what the event carries: the SMTP answer, the bounce diagnostic, the clicked link, ...'),
  })
  .meta({ id: 'EmailEventData' });

export const TestEventData = z.object({ webhookId: z.string(), message: z.string() }).meta({ id: 'TestEventData' });

export const EventPayload = z
  .object({
    type: EventType,
    createdAt: z.string().describe('when the event happened (ISO 8601, UTC)'),
    data: z.union([EmailEventData, TestEventData]),
  })
  .meta({
    id: 'WebhookEventPayload',
    description:
      'The JSON body of every webhook call; `data` by type: email.* EmailEventData, webhook.test TestEventData.',
  });

export function isEventType(value: string): boolean {
  return EVENT_TYPES.includes(value);
}
