// Requests generated from the app's own OpenAPI document (fast-check): for each operation, bodies,
// path parameters and query values drawn from its JSON Schemas, mostly valid, often at or just past a
// limit, and sometimes hostile (NUL, lone surrogates, CR/LF, wrong types, huge numbers). Used by the
// property test that no input answers 5xx (test/platform/openapi-fuzz.test.ts).
import fc from 'fast-check';
import { hostileValue, valueFor, type GeneratorContext, type JsonSchema } from './schema-arbitraries.ts';

export interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  schema?: JsonSchema;
}

export interface Operation {
  method: string;
  /** OpenAPI path, `{name}` for parameters. */
  path: string;
  parameters: Parameter[];
  bodySchema: JsonSchema | null;
}

export interface GeneratedRequest {
  method: string;
  url: string;
  payload: unknown;
  idempotencyKey: string | null;
}

/** Every operation of an OpenAPI 3.1 document. */
export function operationsOf(document: { paths: Record<string, Record<string, unknown>> }): Operation[] {
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries(document.paths)) {
    for (const [method, raw] of Object.entries(item)) {
      if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
      const operation = raw as {
        parameters?: Parameter[];
        requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
      };
      operations.push({
        method: method.toUpperCase(),
        path,
        parameters: operation.parameters ?? [],
        bodySchema: operation.requestBody?.content?.['application/json']?.schema ?? null,
      });
    }
  }
  return operations;
}

/** encodeURIComponent, except that a lone surrogate is sent as its (invalid) UTF-8 bytes. */
function encodePart(value: string): string {
  return value.isWellFormed() ? encodeURIComponent(value) : `${encodeURIComponent(value.toWellFormed())}%ED%A0%80`;
}

function asText(value: unknown): string {
  return typeof value === 'string' ? value : (JSON.stringify(value) ?? '');
}

/** Requests for `operation`, half clean, half hostile; `pathValue(name, clean)` chooses each path parameter. */
export function requestFor(
  operation: Operation,
  context: GeneratorContext,
  pathValue: (name: string, clean: boolean) => fc.Arbitrary<string>,
): fc.Arbitrary<GeneratedRequest> {
  return fc.oneof(
    oneRequestFor(operation, { ...context, clean: true }, pathValue),
    oneRequestFor(operation, { ...context, clean: false }, pathValue),
  );
}

function oneRequestFor(
  operation: Operation,
  context: GeneratorContext,
  pathValue: (name: string, clean: boolean) => fc.Arbitrary<string>,
): fc.Arbitrary<GeneratedRequest> {
  const pathParams = operation.parameters.filter((p) => p.in === 'path');
  const queryParams = operation.parameters.filter((p) => p.in === 'query');
  const path = fc.record(
    Object.fromEntries(pathParams.map((p) => [p.name, pathValue(p.name, context.clean === true)])),
  );
  const query = fc.record(
    Object.fromEntries(queryParams.map((p) => [p.name, valueFor(p.schema, context, 0, p.name)])),
    { requiredKeys: [] },
  );
  const body: fc.Arbitrary<unknown> = operation.bodySchema
    ? valueFor(operation.bodySchema, context)
    : context.clean
      ? fc.constant(undefined)
      : fc.oneof({ weight: 4, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: hostileValue });
  const idempotencyKey = fc.option(fc.string({ unit: 'grapheme-ascii', minLength: 0, maxLength: 300 }), { freq: 4 });
  return fc.tuple(path, query, body, idempotencyKey).map(([pathValues, queryValues, payload, key]) => {
    const url = operation.path.replace(/\{(\w+)\}/g, (_, name: string) => encodePart(pathValues[name] ?? ''));
    const search = Object.entries(queryValues)
      .flatMap(([name, value]) =>
        (Array.isArray(value) ? value : [value]).map(
          (item) => `${encodeURIComponent(name)}=${encodePart(asText(item))}`,
        ),
      )
      .join('&');
    return {
      method: operation.method,
      url: search === '' ? url : `${url}?${search}`,
      payload,
      idempotencyKey: key,
    };
  });
}
