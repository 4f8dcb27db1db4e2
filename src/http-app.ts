// What every Herald HTTP app shares (buildApp, and the admin API alone for `herald admin`: admin/app.ts):
// Fastify's options, request ids, JSON bodies, zod, the error shape and the input checks; and the
// hooks through which contacts and segments ask journeys and campaigns.
import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyBaseLogger, type FastifyServerOptions } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { campaignContactHooks, campaignSegmentHooks } from './campaigns/hooks.ts';
import { registerContactHooks } from './contacts/hooks.ts';
import type { Deps } from './deps.ts';
import { journeyContactHooks, journeySegmentHooks } from './journeys/hooks.ts';
import { registerErrorHandling } from './platform/error-handler.ts';
import { registerInputStringCheck } from './platform/input-strings.ts';
import { ProbesAtDebug } from './platform/request-logging.ts';
import { registerSegmentHooks } from './segments/hooks.ts';

/** Contract: request bodies over 20 MB are refused at the edge with 413. */
export const BODY_LIMIT_BYTES = 20 * 1024 * 1024;

declare module 'fastify' {
  interface FastifyInstance {
    herald: { apiPrefix: string };
  }
}

const REQUEST_ID = /^[\w.:-]{1,128}$/;

type Compilers = NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>;
/**
 * zod checks and writes every schema. Given as the factories, Fastify's own compilers (ajv,
 * fast-json-stringify: 85 modules and more) are never loaded, which every start paid for. Typed for
 * ajv's schemas, hence the cast.
 */
const zodCompilers = {
  buildValidator: () => validatorCompiler,
  buildSerializer: () => serializerCompiler,
} as unknown as Compilers;

export function createHttpApp(deps: Pick<Deps, 'logger' | 'config'>) {
  const app = Fastify({
    loggerInstance: deps.logger as FastifyBaseLogger,
    logController: new ProbesAtDebug(),
    bodyLimit: BODY_LIMIT_BYTES,
    requestIdHeader: false,
    genReqId: (request) => {
      const incoming = request.headers['x-request-id'];
      return typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    },
    // Signed link tokens (unsubscribe, confirmation) are path parameters longer than the default 100.
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 2048 },
    schemaController: { compilersFactory: zodCompilers },
  }).withTypeProvider<ZodTypeProvider>();

  app.decorate('herald', { apiPrefix: deps.config.apiPrefix });

  // Every response names its request, so a caller can quote it in a support request.
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    done();
  });

  // JSON bodies: an empty body is "no body" (POST .../cancel sent with a JSON content type).
  const defaultJsonParser = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (body === '') return done(null, undefined);
    defaultJsonParser(request, body as string, done);
  });
  registerErrorHandling(app);
  registerInputStringCheck(app);
  return app;
}

/** Contacts and segments ask journeys and campaigns through these hooks (they cannot import them). */
export function registerAreaHooks(): void {
  registerContactHooks(journeyContactHooks);
  registerSegmentHooks(journeySegmentHooks);
  registerContactHooks(campaignContactHooks);
  registerSegmentHooks(campaignSegmentHooks);
}
