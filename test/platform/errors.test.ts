// The one error path: shapes, the contract's exceptions, edge limits of the platform layer.
import type { FastifyPluginAsync } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { BODY_LIMIT_BYTES } from '../../src/app.ts';
import { usesFlatError } from '../../src/platform/error-handler.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { bearer, createTeam, type TestTeam } from '../support/factory.ts';

const probes: FastifyPluginAsync = async (api) => {
  api.post(
    '/v1/_probe/echo',
    {
      config: { access: 'full' },
      schema: {
        body: z.object({ name: z.string().min(1).max(5), kind: z.enum(['a', 'b']), count: z.number().int() }),
      },
    },
    async (request) => request.body,
  );
  api.post('/v1/_probe/sink', { config: { access: 'full' } }, async (request) => ({
    bytes: JSON.stringify(request.body ?? null).length,
  }));
  api.get('/v1/_probe/boom', { config: { access: 'full' } }, async () => {
    throw new Error('secret internals at /srv/herald/db.ts:42');
  });
};

let t: TestApp;
let team: TestTeam;
beforeAll(async () => {
  t = await createTestApp({ extraRoutes: probes });
  team = await createTeam(t.app);
});
afterAll(() => t.close());

const post = (url: string, payload: string, headers: Record<string, string> = {}) =>
  t.app.inject({
    method: 'POST',
    url,
    payload,
    headers: { ...bearer(team.key), 'content-type': 'application/json', ...headers },
  });

describe('validation', () => {
  it('names the field and the limit', async () => {
    const response = await post('/api/v1/_probe/echo', JSON.stringify({ name: 'toolong', kind: 'a', count: 1 }));
    expect(response.statusCode).toBe(400);
    expect(response.json().error.code).toBe('BAD_REQUEST');
    expect(response.json().error.message).toMatch(/name/);
    expect(response.json().error.message).toMatch(/5/);
  });

  it('unknown enum value, wrong type and missing field each name the field', async () => {
    for (const [body, field] of [
      [{ name: 'x', kind: 'z', count: 1 }, 'kind'],
      [{ name: 'x', kind: 'a', count: 'one' }, 'count'],
      [{ name: 'x', kind: 'a' }, 'count'],
    ] as const) {
      const response = await post('/api/v1/_probe/echo', JSON.stringify(body));
      expect(response.statusCode).toBe(400);
      expect(response.json().error.message).toContain(field);
    }
  });

  it('malformed JSON is a 400 BAD_REQUEST', async () => {
    const response = await post('/api/v1/_probe/echo', '{"name": ');
    expect(response.statusCode).toBe(400);
    expect(response.json().error.code).toBe('BAD_REQUEST');
  });

  it('an empty JSON body is no body', async () => {
    const response = await post('/api/v1/_probe/sink', '');
    expect(response.statusCode).toBe(200);
  });
});

describe('body size (20 MB at the edge)', () => {
  it('accepts a body of exactly the limit', async () => {
    const filler = 'x'.repeat(BODY_LIMIT_BYTES - '{"a":""}'.length);
    const response = await post('/api/v1/_probe/sink', `{"a":"${filler}"}`);
    expect(response.statusCode).toBe(200);
  });

  it('answers 413 with no JSON body one byte past it', async () => {
    const filler = 'x'.repeat(BODY_LIMIT_BYTES - '{"a":""}'.length + 1);
    const response = await post('/api/v1/_probe/sink', `{"a":"${filler}"}`);
    expect(response.statusCode).toBe(413);
    expect(response.body).toBe('');
    expect(response.headers['content-type']).toBeUndefined();
  });

  it('refuses by Content-Length before reading the body', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/v1/_probe/sink',
      headers: {
        ...bearer(team.key),
        'content-type': 'application/json',
        'content-length': String(BODY_LIMIT_BYTES + 1),
      },
      payload: '{}',
    });
    expect(response.statusCode).toBe(413);
    expect(response.body).toBe('');
  });
});

describe('other errors', () => {
  it('unknown routes answer 404 NOT_FOUND', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/v1/nothing-here' });
    expect(response.statusCode).toBe(404);
    expect(response.json().error.code).toBe('NOT_FOUND');
  });

  it('a 5xx never leaks internals', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/v1/_probe/boom', headers: bearer(team.key) });
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({ error: { code: 'INTERNAL_SERVER_ERROR', message: 'Internal server error' } });
    expect(response.body).not.toContain('srv');
  });

  it('every response carries a request id; a sane incoming one is kept', async () => {
    const fresh = await t.app.inject({ method: 'GET', url: '/api/v1/nothing' });
    expect(fresh.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const kept = await t.app.inject({ method: 'GET', url: '/healthz', headers: { 'x-request-id': 'abc-123' } });
    expect(kept.headers['x-request-id']).toBe('abc-123');
    const replaced = await t.app.inject({
      method: 'GET',
      url: '/healthz',
      headers: { 'x-request-id': 'bad id\u0001' },
    });
    expect(replaced.headers['x-request-id']).not.toBe('bad id\u0001');
  });
});

describe('flat {error: string} table', () => {
  it('applies to domain and contact-book 403/404 and every domain verify/delete error only', () => {
    expect(usesFlatError('GET', '/v1/domains/:id', 404)).toBe(true);
    expect(usesFlatError('GET', '/v1/domains', 403)).toBe(true);
    expect(usesFlatError('GET', '/v1/domains/:id', 400)).toBe(false);
    expect(usesFlatError('PUT', '/v1/domains/:id/verify', 400)).toBe(true);
    expect(usesFlatError('DELETE', '/v1/domains/:id', 401)).toBe(true);
    expect(usesFlatError('GET', '/v1/contactBooks/:contactBookId', 404)).toBe(true);
    expect(usesFlatError('PATCH', '/v1/contactBooks/:contactBookId', 403)).toBe(true);
    expect(usesFlatError('GET', '/v1/contactBooks/:contactBookId/contacts', 404)).toBe(false);
    expect(usesFlatError('GET', '/v1/emails/:emailId', 404)).toBe(false);
  });
});

describe('health', () => {
  it('/healthz and /readyz answer', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    const ready = await t.app.inject({ method: 'GET', url: '/readyz' });
    expect(ready.json()).toEqual({ status: 'ready' });
  });

  it('/metrics reports requests by route and status', async () => {
    await t.app.inject({ method: 'GET', url: '/api/v1/whoami', headers: bearer(team.key) });
    const metrics = await t.app.inject({ method: 'GET', url: '/metrics' });
    expect(metrics.body).toMatch(
      /herald_http_requests_total\{method="GET",route="\/api\/v1\/whoami",status="200"\} \d+/,
    );
    expect(metrics.body).toContain('herald_http_request_duration_seconds_bucket');
  });
});

describe('OpenAPI document and reference page', () => {
  it('serves the generated document, identical to the committed openapi.json', async () => {
    const { readFileSync } = await import('node:fs');
    const response = await t.app.inject({ method: 'GET', url: '/api/v1/openapi.json' });
    expect(response.statusCode).toBe(200);
    const served = response.json();
    expect(served.openapi).toBe('3.1.0');
    expect(served.paths['/api/v1/whoami']).toBeDefined();
    expect(served.paths['/admin/v1/teams'].post.tags).toEqual(['admin']);
    const committed = JSON.parse(readFileSync(new URL('../../openapi.json', import.meta.url), 'utf8'));
    expect(
      Object.keys(served.paths)
        .filter((p: string) => !p.includes('_probe'))
        .sort(),
    ).toEqual(Object.keys(committed.paths).sort());
  });

  it('serves an interactive reference page without any CDN', async () => {
    const redirect = await t.app.inject({ method: 'GET', url: '/api/docs' });
    expect(redirect.statusCode).toBe(301);
    expect(redirect.headers.location).toBe('/api/docs/');
    const page = await t.app.inject({ method: 'GET', url: '/api/docs/' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).toContain('/api/v1/openapi.json');
    const script = page.body.match(/src="([^"]+\.js)"/)?.[1];
    expect(script).toBeDefined();
    expect(script).not.toMatch(/^https?:/);
    const asset = await t.app.inject({ method: 'GET', url: `/api/docs/${script}` });
    expect(asset.statusCode).toBe(200);
  });
});
