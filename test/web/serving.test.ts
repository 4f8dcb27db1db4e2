// The dashboard as the server serves it (src/web/serve.ts), through HTTP in process: the page with
// its CSP, hashed assets cached for a year, the history fallback for client routes only, and a
// server without a build that still starts and says how to build.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Fastify from 'fastify';
import { DEFAULT_DIST_DIR, registerDashboard } from '../../src/web/serve.ts';
import { inlineScriptHashes } from '../../src/web/csp.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { ensureDashboardBuilt } from './support/dashboard-build.ts';

let t: TestApp;

beforeAll(async () => {
  ensureDashboardBuilt();
  t = await createTestApp();
});
afterAll(async () => t?.close());

describe('the dashboard page', () => {
  it('is served at / with no-cache and a strict CSP that allows only the hashed theme script inline', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers['cache-control']).toBe('no-cache');
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("connect-src 'self'");
    expect(csp).toContain("frame-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain("'unsafe-eval'");
    const scriptSrc = csp.split('; ').find((d) => d.startsWith('script-src'))!;
    expect(scriptSrc).not.toContain("'unsafe-inline'");
    const hashes = inlineScriptHashes(res.body);
    expect(hashes).toHaveLength(1);
    expect(scriptSrc).toBe(`script-src 'self' ${hashes[0]}`);
    expect(res.body).toContain('<meta name="herald-api-prefix" content="/api"');
  });

  it('serves hashed assets as immutable for a year, compressed when asked', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/' });
    const script = page.body.match(/src="(\/assets\/[^"]+\.js)"/)![1]!;
    const res = await t.app.inject({ method: 'GET', url: script, headers: { 'accept-encoding': 'br, gzip' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.headers['content-type']).toMatch(/javascript/);
    expect(res.headers['content-encoding']).toBe('br');
    const head = await t.app.inject({ method: 'HEAD', url: script });
    expect(head.statusCode).toBe(200);
    const missing = await t.app.inject({ method: 'GET', url: '/assets/nothing-here.js' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ error: { code: 'NOT_FOUND' } });
    const dotted = await t.app.inject({ method: 'GET', url: '/assets/.hidden' });
    expect(dotted.statusCode).toBe(404);
  });

  it('serves the icon, not cached for long: the build has no other file outside assets/ but the page', async () => {
    const files = fs.readdirSync(DEFAULT_DIST_DIR).filter((name) => !name.startsWith('.'));
    expect(files.sort()).toEqual(['assets', 'favicon.svg', 'index.html']);
    const res = await t.app.inject({ method: 'GET', url: '/favicon.svg' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^image\/svg\+xml/);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });

  it('answers client routes with the page, and the server paths with their own JSON 404', async () => {
    for (const url of ['/emails', '/emails/em_123?tab=json', '/domains/7', '/sign-in/abc', '/no/such/page']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type'], url).toMatch(/^text\/html/);
      expect(res.headers['content-security-policy'], url).toBeDefined();
    }
    for (const url of [
      '/api/v1/no-such-thing',
      '/api/nothing',
      '/admin/v1/nothing',
      '/healthz/x',
      '/metrics/x',
      '/t/o/x/y',
      '/unsubscribe/a/b',
      '/hooks/nothing',
      '/inbound/nothing',
    ]) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(404);
      expect(res.headers['content-type'], url).toMatch(/^application\/json/);
      expect(res.json(), url).toMatchObject({ error: { code: 'NOT_FOUND' } });
    }
    const health = await t.app.inject({ method: 'GET', url: '/healthz' });
    expect(health.json()).toEqual({ status: 'ok' });
  });

  it('never falls back for other methods', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/emails', payload: {} });
    expect(res.statusCode).toBe(404);
  });
});

describe('another API prefix (HERALD_API_PREFIX)', () => {
  it('names it in the page, and keeps its unknown paths JSON 404s, none at all included', async () => {
    for (const apiPrefix of ['/herald-api', '']) {
      const other = await createTestApp({ config: { apiPrefix } });
      try {
        const page = await other.app.inject({ method: 'GET', url: '/emails' });
        expect(page.statusCode).toBe(200);
        expect(page.body).toContain(`<meta name="herald-api-prefix" content="${apiPrefix}"`);
        for (const url of [`${apiPrefix}/v1/no-such-thing`, `${apiPrefix}/v1/emails/x/y`]) {
          const res = await other.app.inject({ method: 'GET', url });
          expect(res.statusCode, url).toBe(404);
          expect(res.json(), url).toMatchObject({ error: { code: 'NOT_FOUND' } });
        }
        expect((await other.app.inject({ method: 'GET', url: `${apiPrefix}/v1/whoami` })).statusCode).toBe(401);
      } finally {
        await other.close();
      }
    }
  });
});

describe('a server without a built dashboard', () => {
  it('starts, and / says how to build', async () => {
    const missing = path.join(DEFAULT_DIST_DIR, 'missing-build');
    const app = Fastify();
    await registerDashboard(app, { apiPrefix: '/api', distDir: missing });
    app.get('/api/v1/thing', async () => ({ ok: true }));
    await app.ready();
    try {
      const res = await app.inject({ method: 'GET', url: '/' });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/plain/);
      expect(res.body).toContain('npm run web:build');
      expect((await app.inject({ method: 'GET', url: '/api/v1/thing' })).json()).toEqual({ ok: true });
      expect((await app.inject({ method: 'GET', url: '/emails' })).statusCode).toBe(404);
    } finally {
      await app.close();
    }
    expect(fs.existsSync(missing)).toBe(false);
  });
});
