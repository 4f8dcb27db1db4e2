// Examples for the OpenAPI document, made from the route schemas so they cannot drift from them:
// every JSON request body and response gets one unless its schema already carries `examples`.
// Values are picked by field name where that reads better than a bare type ("ada@example.com"
// rather than "string"), and every pick is checked against the field's own pattern and limits.
// test/platform/openapi-examples.test.ts validates each example against its schema.
import {
  ERROR_CODES,
  ERROR_MESSAGES,
  ID_PREFIX_BY_FIELD,
  ID_PREFIX_BY_SCHEMA,
  ID_PREFIX_BY_SEGMENT,
  NUMBER_BY_NAME,
  STRING_BY_NAME,
} from './openapi-example-values.ts';
import { OPERATION_REQUEST_EXAMPLES } from './openapi-request-examples.ts';

type Schema = Record<string, unknown>;
/** The parts of the generated OpenAPI document read and changed here. */
export interface OpenApiDocument {
  paths?: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, Schema> };
}
interface MediaType {
  schema?: Schema;
  example?: unknown;
  examples?: unknown;
}
interface Operation {
  security?: unknown;
  requestBody?: { content?: Record<string, MediaType> };
  responses?: Record<string, { content?: Record<string, MediaType> }>;
}

interface Context {
  doc: OpenApiDocument;
  path: string;
  name: string | undefined;
  /** Id prefix of the resource being described (`em_` for an email), from the path or a named schema. */
  idPrefix: string;
  request: boolean;
  status: number;
  depth: number;
}

const DATE_TIME = '2026-01-15T09:30:00.000Z';
/** What a string field shows when neither its name nor its format suggests anything better. */
const PLACEHOLDER = 'example';
const DATE = '2026-01-15';
const ID_TAIL = '01kf0m3q7r9t5v6w8y0z1a2b3c';

function resolveRef(doc: OpenApiDocument, ref: string): { schema: Schema; name: string } {
  const name = ref.replace('#/components/schemas/', '');
  const schema = doc.components?.schemas?.[name];
  if (!schema) throw new Error(`OpenAPI examples: unresolved $ref ${ref}`);
  return { schema, name };
}

function fits(schema: Schema, value: string): boolean {
  if (typeof schema.minLength === 'number' && value.length < schema.minLength) return false;
  if (typeof schema.maxLength === 'number' && value.length > schema.maxLength) return false;
  if (typeof schema.pattern === 'string' && !new RegExp(schema.pattern, 'u').test(value)) return false;
  return true;
}

function idFor(ctx: Context): string | undefined {
  const name = ctx.name;
  if (name && ID_PREFIX_BY_FIELD[name]) return `${ID_PREFIX_BY_FIELD[name]}${ID_TAIL}`;
  if (name === 'id') return `${ctx.idPrefix}${ID_TAIL}`;
  return undefined;
}

function stringExample(schema: Schema, ctx: Context): string {
  const name = ctx.name ?? '';
  const error = ctx.status >= 400 ? errorString(name, ctx.status) : undefined;
  const sms = /\/(sms|verify)\b/.test(ctx.path);
  const candidates = [
    error,
    name === 'to' ? (sms ? '+14155550123' : 'ada@example.com') : undefined,
    name === 'name' ? nameFor(ctx.path) : undefined,
    name === 'key' && ctx.path.includes('/api-keys') ? 'hk_4f9c2a7e1b8d3f6a0c5e9b2d7a1f4c8e' : undefined,
    name === 'value' && ctx.path.endsWith('/dns') ? 'v=DKIM1; k=rsa; p=MIIBIjANBgkqhkiG9w0BAQEFAAOC…' : undefined,
    name === 'value' && ctx.path.includes('/domains') ? 'herald.example.com' : undefined, // an MX record's host
    idFor(ctx),
    name === 'type' ? typeFor(ctx.path) : undefined,
    STRING_BY_NAME[name],
    schema.format === 'date-time' || /(At|Time|Date)$/.test(name) ? DATE_TIME : undefined,
    schema.format === 'date' || name === 'date' ? DATE : undefined,
    schema.format === 'email' ? 'ada@example.com' : undefined,
    String(schema.pattern).includes('A-Za-z0-9+/') ? 'SGVsbG8sIEFkYQ==' : undefined, // base64 content
    'example',
    DATE_TIME,
    DATE,
    'ada@example.com',
    '+14155550123',
    '12345',
    'GB',
    '1.5',
  ];
  for (const candidate of candidates) if (candidate !== undefined && fits(schema, candidate)) return candidate;
  const min = typeof schema.minLength === 'number' ? schema.minLength : 0;
  return PLACEHOLDER.padEnd(min, 'x');
}

function errorString(name: string, status: number): string | undefined {
  if (name === 'code') return ERROR_CODES[status];
  if (name === 'message' || name === 'error') return ERROR_MESSAGES[status];
  return undefined;
}

/** `type` fields that are free strings in the schema but hold one of a known set. */
function typeFor(path: string): string | undefined {
  if (path.includes('/webhooks/calls')) return 'email.delivered';
  if (path.includes('/billing/') || path.includes('/wallet')) return 'TOP_UP';
  return undefined;
}

function nameFor(path: string): string {
  if (path.includes('/templates')) return 'Welcome email';
  if (path.includes('/segments')) return 'Active readers';
  if (path.includes('/journeys')) return 'Onboarding';
  if (path.includes('/contactBooks') || path.includes('/contact-books')) return 'Newsletter';
  if (path.includes('/domains')) return 'example.com';
  if (path.endsWith('/dns')) return 'herald._domainkey.herald.example.com';
  if (path.includes('/inboxes')) return 'Support';
  return 'Acme';
}

function numberExample(schema: Schema, ctx: Context): number {
  const integer = schema.type === 'integer';
  let value = NUMBER_BY_NAME[ctx.name ?? ''] ?? (ctx.name === 'id' || ctx.name?.endsWith('Id') ? 1 : 1);
  if (typeof schema.minimum === 'number' && value < schema.minimum) value = schema.minimum;
  if (typeof schema.exclusiveMinimum === 'number' && value <= schema.exclusiveMinimum)
    value = schema.exclusiveMinimum + 1;
  if (typeof schema.maximum === 'number' && value > schema.maximum) value = schema.maximum;
  if (typeof schema.exclusiveMaximum === 'number' && value >= schema.exclusiveMaximum)
    value = schema.exclusiveMaximum - 1;
  return integer ? Math.round(value) : value;
}

function objectExample(schema: Schema, ctx: Context): Record<string, unknown> {
  const properties = (schema.properties ?? {}) as Record<string, Schema>;
  const required = new Set((schema.required ?? []) as string[]);
  const names = Object.keys(properties);
  // A request shows what a caller must send (all fields when none is required); a response shows all.
  const shown = ctx.request && required.size > 0 ? names.filter((name) => required.has(name)) : names;
  const result: Record<string, unknown> = {};
  for (const name of shown) result[name] = exampleOf(properties[name]!, { ...ctx, name, depth: ctx.depth + 1 });
  if (names.length === 0 && schema.additionalProperties !== undefined && schema.additionalProperties !== false) {
    const key = mapKey(ctx.name, schema.propertyNames as Schema | undefined);
    const valueSchema = schema.additionalProperties === true ? {} : (schema.additionalProperties as Schema);
    result[key] = exampleOf(valueSchema, { ...ctx, name: key, depth: ctx.depth + 1 });
  }
  return result;
}

function mapKey(mapName: string | undefined, keySchema: Schema | undefined): string {
  const byMap: Record<string, string> = { variables: 'firstName', headers: 'X-Entity-Ref-ID', properties: 'plan' };
  const candidates = [byMap[mapName ?? ''], 'key', 'X-Example'];
  return candidates.find((c) => c !== undefined && (keySchema === undefined || fits(keySchema, c))) ?? 'key';
}

/** A value valid against `schema`, chosen to read like real data. */
export function exampleOf(schema: Schema, ctx: Context): unknown {
  if (ctx.depth > 12) return null;
  if (typeof schema.$ref === 'string') {
    const { schema: target, name } = resolveRef(ctx.doc, schema.$ref);
    return exampleOf(target, { ...ctx, idPrefix: ID_PREFIX_BY_SCHEMA[name] ?? ctx.idPrefix });
  }
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0];
  if ('example' in schema) return schema.example;
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) {
    const code = ctx.status >= 400 && ctx.name === 'code' ? ERROR_CODES[ctx.status] : undefined;
    return schema.enum.includes(code) ? code : schema.enum[0];
  }
  if ('default' in schema && !(ctx.status >= 400)) return schema.default;
  const branches = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined;
  if (branches) {
    const chosen = branches.find((branch) => branch.type !== 'null') ?? branches[0]!;
    return orNull(exampleOf(chosen, ctx), branches.length > 1 && chosen !== branches.find((b) => b.type === 'null'));
  }
  if (Array.isArray(schema.allOf)) {
    return Object.assign({}, ...(schema.allOf as Schema[]).map((part) => exampleOf(part, ctx)));
  }
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  switch (type) {
    case 'string':
      return orNull(stringExample(schema, ctx), Array.isArray(schema.type) && schema.type.includes('null'));
    case 'integer':
    case 'number':
      return numberExample(schema, ctx);
    case 'boolean':
      return true;
    case 'null':
      return null;
    case 'array': {
      const items = (schema.items ?? {}) as Schema;
      if (schema.maxItems === 0) return [];
      const count = Math.max(1, typeof schema.minItems === 'number' ? schema.minItems : 1);
      // Items are named after the list: contactIds holds contactId values.
      const name = ctx.name?.replace(/s$/, '');
      return Array.from({ length: count }, () => exampleOf(items, { ...ctx, name, depth: ctx.depth + 1 }));
    }
    case 'object':
      return objectExample(schema, ctx);
    default:
      if (schema.properties) return objectExample(schema, ctx);
      return stringExample({}, ctx);
  }
}

/** A nullable field with nothing better to show than a placeholder shows null, as real data would. */
function orNull(value: unknown, nullable: boolean): unknown {
  return nullable && value === PLACEHOLDER ? null : value;
}

/** A 422 whose body carries `risk` is the contract's RISK_REFUSED (platform/risk.ts). */
function riskRefusal(status: number, example: unknown): unknown {
  if (status !== 422 || typeof example !== 'object' || example === null || !('risk' in example)) return example;
  const detail = '5 or more messages to numbers with this prefix in the last 10 minutes';
  return {
    ...example,
    error: { code: 'RISK_REFUSED', message: `Refused by risk scoring (score 70): ${detail}` },
    risk: { score: 70, level: 'HIGH', reasons: [{ code: 'PREFIX_VELOCITY', detail }] },
  };
}

function idPrefixOf(path: string): string {
  const segments = path.split('/').filter((segment) => segment !== '' && !segment.startsWith('{'));
  for (const segment of segments.reverse()) if (ID_PREFIX_BY_SEGMENT[segment]) return ID_PREFIX_BY_SEGMENT[segment];
  return '';
}

function withExample(media: MediaType, make: () => unknown): void {
  if (media.schema === undefined || media.example !== undefined || media.examples !== undefined) return;
  media.example = make();
}

/** Adds an example to every request body and response that has a schema and none of its own. */
export function addOperationExamples(doc: OpenApiDocument, apiPrefix: string): void {
  for (const [path, operations] of Object.entries(doc.paths ?? {})) {
    for (const [method, operation] of Object.entries(operations)) {
      const base = { doc, path, name: undefined, idPrefix: idPrefixOf(path), depth: 0 };
      const key = `${method.toUpperCase()} ${path.startsWith(apiPrefix) ? path.slice(apiPrefix.length) : path}`;
      for (const media of Object.values(operation.requestBody?.content ?? {})) {
        withExample(media, () =>
          key in OPERATION_REQUEST_EXAMPLES
            ? OPERATION_REQUEST_EXAMPLES[key]
            : exampleOf(media.schema!, { ...base, request: true, status: 0 }),
        );
      }
      for (const [status, response] of Object.entries(operation.responses ?? {})) {
        for (const media of Object.values(response.content ?? {})) {
          withExample(media, () =>
            riskRefusal(Number(status), exampleOf(media.schema!, { ...base, request: false, status: Number(status) })),
          );
        }
      }
    }
  }
}
