// Every event type Herald emits: its payload's zod schema and one line on when it happens (contract:
// Events, "the full list of event type names: not shown"; these are Herald's). The OpenAPI document
// and the table in docs/webhooks.md are generated from here (event-docs.ts). recordEvent validates
// against it; email payloads are built in TypeScript (src/emails/views.ts emailEventView), SMS
// payloads from the API's view of the message (src/sms/view.ts).
//
// Areas import recordEvent, so this module imports no area: the status lists come from db/.
import { z } from 'zod';
import { EMAIL_STATUSES } from '../db/schema-email.ts';
import { SMS_STATUSES } from '../db/schema-sms.ts';
import { EXIT_REASONS } from '../db/schema-journeys.ts';
import { CURRENCIES } from '../platform/money.ts';

type EmailStatusName = (typeof EMAIL_STATUSES)[number];

export const EmailEventData = z.object({
  emailId: z.string().describe('the id returned when the email was sent'),
  domainId: z.number().int().nullable().describe('the sending domain; domainIds filters match on it'),
  campaignId: z.string().nullable().describe('the campaign that sent it, or null'),
  status: z.enum(EMAIL_STATUSES).describe('the email status this event records (upper case)'),
  from: z.string(),
  to: z.union([z.string(), z.array(z.string())]),
  subject: z.string(),
  emailCreatedAt: z.string().describe('when the email was sent (ISO 8601)'),
  details: z
    .unknown()
    .nullable()
    .describe('what the event carries: the SMTP answer, the bounce diagnostic, the clicked link, ...'),
});

/** The `data` of an `email.*` event (src/emails/views.ts emailEventView builds it). */
export type EmailEventPayload = z.infer<typeof EmailEventData>;

/** Contract: SMS status. */

/** Contract: SMS message, the object an `sms.*` event carries (the number masked as in the API). */
export const SmsEventData = z.object({
  id: z.string(),
  // At most four digits: an unmasked number must never reach a webhook.
  to: z
    .string()
    .regex(/^[^0-9]*[0-9]{0,4}$/, 'must be masked to the last four digits')
    .describe('the phone number masked to its last four digits'),
  status: z.enum(SMS_STATUSES),
  segments: z.number().int().nonnegative(),
  charge: z.object({
    currency: z.enum(CURRENCIES),
    amount: z
      .string()
      .regex(/^\d+(\.\d+)?$/, 'must be a decimal string')
      .describe('decimal string in the wallet currency'),
  }),
  reason: z
    .object({ code: z.string(), message: z.string() })
    .nullable()
    .describe('set when status is failed or rejected; plain language, never a provider code'),
  createdAt: z.string(),
  updatedAt: z.string(),
});

export const TestEventData = z.object({ webhookId: z.string(), message: z.string() });

/** A journey run that ended: completed its last step, or exited (contract: Journey run). */
export const JourneyRunEventData = z.object({
  runId: z.string(),
  journeyId: z.string(),
  contactId: z.string(),
  status: z.enum(['COMPLETED', 'EXITED']),
  exitReason: z
    .enum(EXIT_REASONS)
    .nullable()
    .describe('why the run exited; null when completed, or when it left the segment (exitWhenLeavesSegment)'),
  currentStepIndex: z.number().int(),
});

/** A campaign that started, paused or finished sending (issue 44: campaign.started, .paused, .sent). */
export const CampaignEventData = z.object({
  campaignId: z.string(),
  name: z.string(),
  status: z.enum(['RUNNING', 'PAUSED', 'SENT']),
  pausedReason: z.enum(['MANUAL', 'QUOTA']).nullable().describe("why it paused: by hand, or the plan's send limit"),
  total: z.number().int().describe('recipients in the snapshot taken when it started'),
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
});

/** Bodies longer than this (characters) are left out of `email.received`: read them through `links.message`. */
export const RECEIVED_BODY_MAX = 32_768;

/** A message received by one of the team's inboxes (contract: Inbound message, without html). */
export const InboundEventData = z.object({
  messageId: z.string().describe("Herald's id of the received message: GET /v1/inbound/messages/{messageId}"),
  conversationId: z.string(),
  inbox: z.object({ id: z.string(), name: z.string(), address: z.string() }),
  from: z.string(),
  to: z.array(z.string()),
  cc: z.array(z.string()),
  subject: z.string(),
  text: z.string().nullable().describe(`null when absent or longer than ${RECEIVED_BODY_MAX} characters`),
  strippedText: z.string().nullable().describe(`null when absent or longer than ${RECEIVED_BODY_MAX} characters`),
  attachments: z.array(z.object({ filename: z.string(), contentType: z.string(), size: z.number().int() })),
  contactId: z.string().nullable(),
  inReplyToEmailId: z.string().nullable(),
  spamVerdict: z.enum(['clean', 'suspicious', 'spam']),
  receivedAt: z.string(),
  links: z.object({
    message: z.string().describe('the message in the API (needs a full access key)'),
    raw: z.string().describe('the original .eml, while it is kept'),
  }),
});

interface EventDefinition {
  /** The schema of the envelope's `data`. */
  data: z.ZodType;
  /** Its name in the OpenAPI document's components. */
  schemaName: string;
  /** When the event happens, one line (docs/webhooks.md, the OpenAPI document). */
  when: string;
}

const email = (when: string) => ({ data: EmailEventData, schemaName: 'EmailEventData', when }) as const;
const sms = (when: string) => ({ data: SmsEventData, schemaName: 'SmsEventData', when }) as const;

const EMAIL_EVENTS_WHEN: Record<EmailStatusName, string> = {
  SCHEDULED: 'a send was accepted for a later time',
  QUEUED: 'a send was accepted and queued',
  SENT: 'a relay accepted the email (`HERALD_MAIL_TRANSPORT=smtp://…` or `log`)',
  DELIVERY_DELAYED: 'a temporary failure; Herald retries (or a delay report came back)',
  BOUNCED: 'a permanent failure at sending, or a bounce report (DSN) that came back',
  REJECTED: 'the email could not be sent: refused',
  RENDERING_FAILURE: 'the email could not be sent: its content could not be built',
  DELIVERED: "a recipient's mail server accepted it (`direct` transport)",
  OPENED:
    'the tracking pixel was fetched for the first time (once per email, or per recipient of a MARKETING email; later opens are counted in the data, not sent again)',
  CLICKED: 'a tracked link was followed (every click)',
  COMPLAINED: 'a recipient reported it as spam (ARF feedback report)',
  FAILED: 'the email could not be sent',
  CANCELLED: 'a scheduled email was cancelled',
  SUPPRESSED: "recipients on the team's suppression list were skipped",
};

export type EmailEventType = `email.${Lowercase<EmailStatusName>}`;

/** email.<status in lower case> for every email status, e.g. email.delivery_delayed. */
export const emailEventType = (status: EmailStatusName): EmailEventType =>
  `email.${status.toLowerCase()}` as EmailEventType;

const emailEvents = Object.fromEntries(
  EMAIL_STATUSES.map((status) => [emailEventType(status), email(EMAIL_EVENTS_WHEN[status])]),
) as Record<EmailEventType, ReturnType<typeof email>>;

export const EVENT_CATALOGUE = {
  ...emailEvents,
  'sms.sent': sms('an SMS message was accepted by the network'),
  'sms.delivered': sms("an SMS message was confirmed by the provider's delivery report"),
  'sms.failed': sms('an SMS message was not delivered after being sent; the charge stands'),
  'sms.rejected': sms('an SMS message was refused before delivery; the charge was returned'),
  'journey.run.completed': {
    data: JourneyRunEventData,
    schemaName: 'JourneyRunEventData',
    when: 'a journey run finished its last step',
  },
  'journey.run.exited': {
    data: JourneyRunEventData,
    schemaName: 'JourneyRunEventData',
    when: 'a journey run left before its end (unsubscribed, contact deleted, journey archived, send failed, left the segment)',
  },
  'campaign.started': {
    data: CampaignEventData,
    schemaName: 'CampaignEventData',
    when: 'a campaign started: its recipients were taken and its first batch is due',
  },
  'campaign.paused': {
    data: CampaignEventData,
    schemaName: 'CampaignEventData',
    when: "a campaign paused: by hand, or when the plan's send limit ran out (it goes on by itself then)",
  },
  'campaign.sent': {
    data: CampaignEventData,
    schemaName: 'CampaignEventData',
    when: 'a campaign sent its last recipient their email',
  },
  'email.received': {
    data: InboundEventData,
    schemaName: 'InboundEventData',
    when: "a message arrived at one of the team's inboxes (every message, spam included, with its spamVerdict)",
  },
  'webhook.test': {
    data: TestEventData,
    schemaName: 'TestEventData',
    when: '`POST /v1/webhooks/{id}/test` (to that webhook only)',
  },
} as const satisfies Record<string, EventDefinition>;

export type EventType = keyof typeof EVENT_CATALOGUE;
export type EventData<T extends EventType> = z.infer<(typeof EVENT_CATALOGUE)[T]['data']>;

export const EVENT_TYPES = Object.keys(EVENT_CATALOGUE) as EventType[];

export function isEventType(value: string): value is EventType {
  return Object.hasOwn(EVENT_CATALOGUE, value);
}

/** The public envelope of every call's body: `{type, createdAt, data}` (createdAt: ISO 8601, UTC). */
export function eventEnvelope<T extends EventType>(type: T) {
  return z.object({
    type: z.literal(type),
    createdAt: z.string().describe('when the event happened (ISO 8601, UTC)'),
    data: EVENT_CATALOGUE[type].data,
  });
}
