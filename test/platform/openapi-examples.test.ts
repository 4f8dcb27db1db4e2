// The API reference: version, servers, security, and an example for every request body and
// response, each valid against its own schema (ajv, JSON Schema 2020-12 as OpenAPI 3.1 uses).
import fs from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exampleOf } from '../../src/platform/openapi-examples.ts';
import { createTestApp, type TestApp } from '../support/app.ts';

type Schema = Record<string, unknown>;
interface Media {
  schema?: Schema;
  example?: unknown;
}
interface Operation {
  security?: Array<Record<string, unknown>>;
  requestBody?: { content: Record<string, Media> };
  responses: Record<string, { content?: Record<string, Media> }>;
}
interface Document {
  info: { version: string };
  servers: Array<{ url: string }>;
  security: unknown;
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema> };
}

// ajv-formats is CommonJS: its default export arrives as the module object under NodeNext.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as unknown as (
  ajv: Ajv2020,
) => void;

/** Operations with no JSON response to exemplify: the provider callbacks. */
const WITHOUT_JSON_RESPONSE = [
  'POST /hooks/sms/africastalking/{token}',
  'POST /hooks/sms/termii',
  'POST /hooks/sms/twilio',
  'POST /hooks/stripe',
];

let t: TestApp;
let doc: Document;
let ajv: Ajv2020;

function operations(): Array<[string, Operation]> {
  return Object.entries(doc.paths).flatMap(([path, ops]) =>
    Object.entries(ops).map(([method, op]) => [`${method.toUpperCase()} ${path}`, op] as [string, Operation]),
  );
}

/** ajv's errors for `value` against `schema`, whose `$ref`s point into the document's components. */
function errorsOf(schema: Schema, value: unknown): string | null {
  const validate = ajv.compile({ ...schema, components: doc.components });
  return validate(value) ? null : ajv.errorsText(validate.errors);
}

beforeAll(async () => {
  t = await createTestApp();
  doc = (await t.app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json();
  ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
});
afterAll(() => t.close());

describe('the OpenAPI document', () => {
  it('carries the version of package.json, the public URL as server and the API key as default security', () => {
    const pkg = JSON.parse(fs.readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
    expect(doc.info.version).toBe(pkg.version);
    expect(doc.servers).toEqual([expect.objectContaining({ url: t.deps.config.publicUrl })]);
    expect(doc.security).toEqual([{ apiKey: [] }]);
  });

  it('states the security of every operation: admin token for /admin, none for provider callbacks', () => {
    // The dashboard's sign-in takes nothing; its session endpoints the session cookie only.
    const signIn = ['POST /api/v1/session', 'POST /api/v1/session/sign-in'];
    for (const [key, op] of operations()) {
      if (key.includes(' /admin/')) expect(op.security, key).toEqual([{ adminToken: [] }]);
      else if (key.includes(' /hooks/') || signIn.includes(key)) expect(op.security, key).toEqual([]);
      else if (key.includes(' /api/v1/session')) expect(op.security, key).toEqual([{ sessionCookie: [] }]);
      else expect(op.security, key).toEqual([{ apiKey: [] }]);
    }
  });

  it('defines every schema a $ref names', () => {
    const refs = new Set(JSON.stringify(doc).match(/#\/components\/schemas\/[A-Za-z0-9_]+/g));
    expect(refs.size).toBeGreaterThan(10);
    for (const ref of refs) expect(doc.components.schemas[ref.split('/').pop()!], ref).toBeDefined();
  });

  it('has a request example for every body and a response example for every JSON response', () => {
    const withoutJson: string[] = [];
    for (const [key, op] of operations()) {
      for (const media of Object.values(op.requestBody?.content ?? {})) expect(media.example, key).toBeDefined();
      const responses = Object.values(op.responses).flatMap((r) => Object.values(r.content ?? {}));
      for (const media of responses) expect(media.example, key).toBeDefined();
      if (responses.length === 0) withoutJson.push(key);
    }
    expect(withoutJson.sort()).toEqual(WITHOUT_JSON_RESPONSE);
  });

  it('has examples that validate against their schemas', () => {
    let checked = 0;
    const failures: string[] = [];
    for (const [key, op] of operations()) {
      const media = [
        ...Object.values(op.requestBody?.content ?? {}).map((m) => ['request', m] as const),
        ...Object.entries(op.responses).flatMap(([status, r]) =>
          Object.values(r.content ?? {}).map((m) => [status, m] as const),
        ),
      ];
      for (const [where, m] of media) {
        const errors = errorsOf(m.schema!, m.example);
        if (errors) failures.push(`${key} ${where}: ${errors}`);
        checked += 1;
      }
    }
    expect(failures).toEqual([]);
    expect(checked).toBeGreaterThan(500);
  });

  it('the validator refuses an example that breaks its schema (the check above can fail)', () => {
    const send = doc.paths['/api/v1/emails']!.post!.requestBody!.content['application/json']!;
    expect(errorsOf(send.schema!, send.example)).toBeNull();
    const { from: _from, ...withoutFrom } = send.example as Record<string, unknown>;
    expect(errorsOf(send.schema!, withoutFrom)).toMatch(/from/);
    const sms = doc.paths['/api/v1/sms']!.post!.responses['201']!.content!['application/json']!;
    expect(errorsOf(sms.schema!, { ...(sms.example as object), segments: 'one' })).toMatch(/segments/);
  });

  it('shows error bodies in the shape and codes the error handler sends', () => {
    const responses = doc.paths['/api/v1/sms']!.post!.responses;
    const body = (status: string) => responses[status]!.content!['application/json']!.example;
    expect(body('402')).toEqual({
      error: { code: 'INSUFFICIENT_BALANCE', message: expect.any(String) },
    });
    expect(body('422')).toMatchObject({ error: { code: 'RISK_REFUSED' }, risk: { level: 'HIGH' } });
    const flat = doc.paths['/api/v1/domains/{id}']!.get!.responses['404']!.content!['application/json']!;
    expect(flat.example).toEqual({ error: expect.any(String) });
  });
});

describe('examples made from a schema', () => {
  const ctx = { doc: {}, path: '/v1/sms', name: 'to', idPrefix: '', request: true, status: 0, depth: 0 };

  it('picks a value its pattern accepts', () => {
    expect(exampleOf({ type: 'string', pattern: '^\\+[1-9]\\d{1,14}$' }, ctx)).toBe('+14155550123');
    expect(exampleOf({ type: 'string', pattern: '^[A-Za-z]{2}$' }, { ...ctx, name: 'x' })).toBe('GB');
  });

  it('keeps to length limits and exclusive bounds, at the edge', () => {
    expect(exampleOf({ type: 'string', minLength: 30 }, { ...ctx, name: 'x' })).toHaveLength(30);
    expect((exampleOf({ type: 'string', maxLength: 5 }, { ...ctx, name: 'x' }) as string).length).toBeLessThan(6);
    expect(exampleOf({ type: 'integer', exclusiveMinimum: 5 }, { ...ctx, name: 'x' })).toBe(6);
    expect(exampleOf({ type: 'integer', minimum: 7, maximum: 7 }, { ...ctx, name: 'count' })).toBe(7);
  });

  it('shows only required fields of a request, all fields of a response', () => {
    const schema = { type: 'object', properties: { a: { type: 'string' }, b: { type: 'string' } }, required: ['a'] };
    expect(Object.keys(exampleOf(schema, ctx) as object)).toEqual(['a']);
    expect(Object.keys(exampleOf(schema, { ...ctx, request: false }) as object)).toEqual(['a', 'b']);
  });
});

describe('the reference page', () => {
  it('hides the hosted products of the reference UI', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/api/docs/' });
    expect(page.statusCode).toBe(200);
    expect(page.body).toMatch(/"showDeveloperTools": "never"/);
    expect(page.body).toMatch(/"agent": \{\s*"disabled": true\s*\}/);
    expect(page.body).toMatch(/"mcp": \{\s*"disabled": true\s*\}/);
    expect(page.body).toMatch(/"telemetry": false/);
  });
});
