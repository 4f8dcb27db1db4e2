// Shapes every error body. The contract's exceptions live in one table here, not in routes:
// flat `{error: string}` bodies for domain and contact-book 403/404 (and every domain verify/delete
// error), and 413 with no JSON body at all.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { isConnectionLost } from '../db/errors.ts';
import { ApiError, type ErrorCode } from './errors.ts';

interface FlatErrorRule {
  methods: readonly string[];
  /** Route pattern without the API prefix, as Fastify declares it. */
  route: RegExp;
  statuses: readonly number[] | 'all';
}

const flatErrorRules: readonly FlatErrorRule[] = [
  { methods: ['PUT'], route: /^\/v1\/domains\/:id\/verify$/, statuses: 'all' },
  { methods: ['DELETE'], route: /^\/v1\/domains\/:id$/, statuses: 'all' },
  { methods: ['GET', 'POST', 'PATCH', 'PUT', 'DELETE'], route: /^\/v1\/domains(\/.*)?$/, statuses: [403, 404] },
  {
    methods: ['GET', 'POST', 'PATCH', 'DELETE'],
    route: /^\/v1\/contactBooks(\/:contactBookId)?$/,
    statuses: [403, 404],
  },
];

export function usesFlatError(method: string, route: string, status: number): boolean {
  return flatErrorRules.some(
    (rule) =>
      rule.methods.includes(method) &&
      rule.route.test(route) &&
      (rule.statuses === 'all' || rule.statuses.includes(status)),
  );
}

const codeForStatus: Record<number, ErrorCode> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHORIZED',
  402: 'INSUFFICIENT_BALANCE',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  409: 'CONFLICT',
  413: 'PAYLOAD_TOO_LARGE',
  422: 'UNPROCESSABLE_ENTITY',
  429: 'RATE_LIMITED',
  503: 'SERVICE_UNAVAILABLE',
};

function describeValidation(error: FastifyError): string {
  if (!hasZodFastifySchemaValidationErrors(error)) return error.message;
  const context = error.validationContext ?? 'body';
  return error.validation
    .slice(0, 5)
    .map((issue) => {
      const field = issue.instancePath.replace(/^\//, '').replaceAll('/', '.');
      const where = field === '' ? context : `${context === 'body' ? '' : `${context}.`}${field}`;
      return `${where}: ${issue.message}`;
    })
    .join('; ');
}

interface Shaped {
  status: number;
  code: ErrorCode;
  message: string;
  extra?: Record<string, unknown>;
  headers?: Record<string, string>;
}

function shape(error: FastifyError | ApiError | Error): Shaped {
  if (error instanceof ApiError) {
    return {
      status: error.status,
      code: error.code,
      message: error.message,
      extra: error.extra,
      headers: error.headers,
    };
  }
  const fastifyError = error as FastifyError;
  if (fastifyError.validation) {
    return { status: 400, code: 'BAD_REQUEST', message: describeValidation(fastifyError) };
  }
  const status = fastifyError.statusCode ?? 500;
  if (status >= 400 && status < 500) {
    // Fastify's own client errors (malformed JSON, bad content type, ...): keep their message,
    // which never carries internals, under our code names.
    const code = status === 415 ? 'BAD_REQUEST' : (codeForStatus[status] ?? 'BAD_REQUEST');
    return { status: status === 415 ? 400 : status, code, message: fastifyError.message };
  }
  if (isConnectionLost(error)) {
    // The database went away (a restart, a failover): nothing wrong with the request, which can be
    // sent again once the pool has reconnected.
    return {
      status: 503,
      code: 'SERVICE_UNAVAILABLE',
      message: 'The database is unavailable; retry shortly',
      headers: { 'retry-after': '1' },
    };
  }
  return { status: 500, code: 'INTERNAL_SERVER_ERROR', message: 'Internal server error' };
}

function sendError(request: FastifyRequest, reply: FastifyReply, error: FastifyError | ApiError | Error): FastifyReply {
  const shaped = shape(error);
  // An ApiError 5xx is an answer the code chose (billing reads while the rate-limit counters are
  // down, the card processor unreachable), its cause logged once where it is detected: a line with
  // a stack per request would bury the one that says what is wrong.
  if (shaped.status >= 500 && !(error instanceof ApiError)) {
    // A lost database connection fails every request until the pool reconnects: one line each, no stack.
    if (isConnectionLost(error))
      request.log.warn({ reason: error.message }, 'request failed: database connection lost');
    else request.log.error({ err: error }, 'request failed');
  }
  if (shaped.headers) reply.headers(shaped.headers);
  // Contract: a 413 answer has no JSON body.
  if (shaped.status === 413) return reply.code(413).header('connection', 'close').send();
  const route = stripPrefix(request.routeOptions.url ?? '', request.server.herald?.apiPrefix ?? '');
  if (usesFlatError(request.method, route, shaped.status)) {
    return reply.code(shaped.status).send({ error: shaped.message });
  }
  return reply.code(shaped.status).send({ error: { code: shaped.code, message: shaped.message }, ...shaped.extra });
}

function stripPrefix(route: string, prefix: string): string {
  return prefix !== '' && route.startsWith(prefix) ? route.slice(prefix.length) : route;
}

export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => sendError(request, reply, error));
  app.setNotFoundHandler((request, reply) =>
    sendError(
      request,
      reply,
      new ApiError(404, 'NOT_FOUND', `No route ${request.method} ${request.url.split('?')[0]}`),
    ),
  );
}
