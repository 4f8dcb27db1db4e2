// The dashboard (web/, built into web/dist) at / of the public listener: hashed assets cached for a
// year, index.html never cached and sent with a strict CSP, and index.html for every other GET that
// is not the server's own (the single-page app's history fallback). The server's own paths (the API
// prefix, /admin, probes, /metrics, tracking, unsubscribe, hooks, ...) are read from the routes
// themselves, so their unknown paths keep answering the JSON 404. Without a build the server still
// starts, and / says how to build.
import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { dashboardCsp, inlineScriptHashes } from './csp.ts';

export const DEFAULT_DIST_DIR = path.join(import.meta.dirname, '..', '..', 'web', 'dist');

const IMMUTABLE = 'public, max-age=31536000, immutable';
/** First path segments the server owns whatever its routes: the API's unknown paths are JSON 404s. */
const ALWAYS_OWNED = ['admin', 'healthz', 'readyz', 'metrics', 'hooks', 'assets'];

export interface DashboardOptions {
  apiPrefix: string;
  /** web/dist by default; tests point it elsewhere. */
  distDir?: string;
}

const firstSegment = (url: string) => url.split('?')[0]!.split('/')[1] ?? '';

function securityHeaders(reply: FastifyReply): FastifyReply {
  return reply
    .header('x-content-type-options', 'nosniff')
    .header('referrer-policy', 'same-origin')
    .header('x-frame-options', 'DENY');
}

/**
 * Call before the other routes are registered: it watches them (onRoute) to learn which first path
 * segments are the server's.
 */
export async function registerDashboard(app: FastifyInstance, options: DashboardOptions): Promise<void> {
  const owned = new Set(ALWAYS_OWNED);
  const prefixSegment = firstSegment(options.apiPrefix);
  if (prefixSegment !== '') owned.add(prefixSegment);
  let dashboardRoutes = false;
  app.addHook('onRoute', (route) => {
    if (dashboardRoutes) return;
    const segment = firstSegment(route.url ?? route.path);
    if (segment !== '' && !segment.startsWith(':') && !segment.startsWith('*')) owned.add(segment);
  });

  const distDir = options.distDir ?? DEFAULT_DIST_DIR;
  const indexFile = path.join(distDir, 'index.html');
  dashboardRoutes = true;
  if (!fs.existsSync(indexFile)) {
    app.get('/', { schema: { hide: true } }, async (_request, reply) =>
      securityHeaders(reply)
        .type('text/plain; charset=utf-8')
        .header('cache-control', 'no-cache')
        .send(
          'Herald is running, but its dashboard is not built (web/dist is missing).\n' +
            'Build it with `npm run web:build` (`npm install` does it too), then restart.\n' +
            `The API is at ${options.apiPrefix}/v1 and its reference at ${options.apiPrefix}/docs.\n`,
        ),
    );
    dashboardRoutes = false;
    return;
  }

  // The page, with this instance's API prefix in its meta tag, held in memory: it is small and served often.
  const html = fs
    .readFileSync(indexFile, 'utf8')
    .replace(/(<meta name="herald-api-prefix" content=")[^"]*(")/, `$1${options.apiPrefix.replace(/"/g, '')}$2`);
  const csp = dashboardCsp(inlineScriptHashes(html));
  const sendPage = (reply: FastifyReply) =>
    securityHeaders(reply)
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-cache')
      .header('content-security-policy', csp)
      .send(html);

  await app.register(async (scope) => {
    // The hashed assets under one route (a route per built file cost every start a walk of the
    // folder and a hundred routes); the page and the icon, the only other files, are served below.
    await scope.register(fastifyStatic, {
      root: path.join(distDir, 'assets'),
      prefix: '/assets/',
      index: [],
      serveDotFiles: false,
      preCompressed: true,
      cacheControl: false,
      setHeaders(reply, file) {
        const hashed = path.relative(distDir, file).startsWith(`assets${path.sep}`);
        reply.header('cache-control', hashed ? IMMUTABLE : 'no-cache');
        reply.header('x-content-type-options', 'nosniff');
      },
    });
    scope.get('/favicon.svg', { schema: { hide: true } }, async (_request, reply) =>
      reply.sendFile('favicon.svg', distDir),
    );
    scope.get('/', { schema: { hide: true } }, async (_request, reply) => sendPage(reply));
    scope.get('/index.html', { schema: { hide: true } }, async (_request, reply) => sendPage(reply));
    // History fallback: a client route (/emails/em_…) reloads into the app; the server's own paths do not.
    scope.get('/*', { schema: { hide: true } }, async (request, reply) => {
      if (owned.has(firstSegment(request.url))) return reply.callNotFound();
      return sendPage(reply);
    });
  });
  dashboardRoutes = false;
}
