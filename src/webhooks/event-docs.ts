// The event catalogue as documentation: the OpenAPI document's `webhooks` (one per event type, its
// request body the envelope with the type's payload schema) and the event table of docs/webhooks.md
// (rewritten by scripts/openapi.ts, whose --check fails when either drifts from the catalogue).
import { z } from 'zod';
import { EVENT_CATALOGUE, EVENT_TYPES, type EventType } from './event-catalogue.ts';

const REF = '#/components/schemas/';
type JsonSchema = Record<string, unknown>;

const CREATED_AT = { type: 'string', description: 'when the event happened (ISO 8601, UTC)' };

/** The payload schemas by name (EmailEventData, SmsEventData, TestEventData) as JSON Schema. */
function payloadSchemas(): Record<string, JsonSchema> {
  const registry = z.registry<{ id: string }>();
  for (const type of EVENT_TYPES) {
    const { data, schemaName } = EVENT_CATALOGUE[type];
    if (!registry.has(data)) registry.add(data, { id: schemaName });
  }
  const { schemas } = z.toJSONSchema(registry, { uri: (id) => `${REF}${id}` });
  return Object.fromEntries(
    Object.entries(schemas).map(([name, { $schema: _schema, $id: _id, ...schema }]) => [name, schema]),
  );
}

function envelope(type: EventType): JsonSchema {
  return {
    type: 'object',
    properties: {
      type: { type: 'string', const: type },
      createdAt: CREATED_AT,
      data: { $ref: `${REF}${EVENT_CATALOGUE[type].schemaName}` },
    },
    required: ['type', 'createdAt', 'data'],
  };
}

/** `webhooks` and the component schemas for the OpenAPI 3.1 document. */
export function webhookEventsOpenApi(): { webhooks: Record<string, unknown>; schemas: Record<string, JsonSchema> } {
  const names = [...new Set(EVENT_TYPES.map((type) => EVENT_CATALOGUE[type].schemaName))];
  const byName = names
    .map((name) => `${name}: ${EVENT_TYPES.filter((t) => EVENT_CATALOGUE[t].schemaName === name).join(', ')}`)
    .join('; ');
  const schemas: Record<string, JsonSchema> = {
    ...payloadSchemas(),
    WebhookEventPayload: {
      type: 'object',
      description: `The JSON body of every webhook call; \`data\` by type: ${byName}.`,
      properties: {
        type: { type: 'string', enum: EVENT_TYPES },
        createdAt: CREATED_AT,
        data: { anyOf: names.map((name) => ({ $ref: `${REF}${name}` })) },
      },
      required: ['type', 'createdAt', 'data'],
    },
  };
  const webhooks = Object.fromEntries(
    EVENT_TYPES.map((type) => [
      type,
      {
        post: {
          summary: type,
          description: `${EVENT_CATALOGUE[type].when}. Signed with Standard Webhooks headers (docs/webhooks.md).`,
          tags: ['webhooks'],
          requestBody: { required: true, content: { 'application/json': { schema: envelope(type) } } },
          responses: { '2XX': { description: 'Delivered. Any other answer is a failed attempt, retried.' } },
        },
      },
    ]),
  );
  return { webhooks, schemas };
}

/** The event table of docs/webhooks.md. */
export function eventTableMarkdown(): string {
  const rows = EVENT_TYPES.map((type) => {
    const { when, schemaName } = EVENT_CATALOGUE[type];
    return `| \`${type}\` | ${when.replaceAll('|', '\\|')} | \`${schemaName}\` |`;
  });
  return ['| type | when | `data` |', '|---|---|---|', ...rows].join('\n');
}
