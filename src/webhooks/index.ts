// What other areas may use of Webhooks. Everything else in this folder is the area's own.
export { recordEvent, recordEvents, type EventInput, type RecordEventOptions } from './record-event.ts';
export { emailEventCallsCte } from './event-call-queries.ts';
export { eventBody } from './events.ts';
export {
  EVENT_CATALOGUE,
  EVENT_TYPES,
  SmsEventData,
  InboundEventData,
  RECEIVED_BODY_MAX,
  isEventType,
  type EventData,
  type EventType,
  emailEventType,
  type EmailEventPayload,
  type EmailEventType,
} from './event-catalogue.ts';
export { webhookEventsOpenApi, eventTableMarkdown } from './event-docs.ts';
export { readEventTail, TAIL_CURSOR, TAIL_OPEN_MS, type TailEvent, type TailPage } from './event-tail.ts';
