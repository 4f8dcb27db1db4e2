// OpenAPI 3.1 generated from the route schemas (zod via fastify-type-provider-zod), served at
// {prefix}/v1/openapi.json with an interactive reference at {prefix}/docs. The committed
// openapi.json is checked for drift by `npm run check`.
import swagger, { type FastifyDynamicSwaggerOptions } from '@fastify/swagger';
import scalar from '@scalar/fastify-api-reference';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import type { Config } from '../config.ts';

const OPENAPI_INFO = {
  title: 'Herald API',
  version: '1.0.0',
  description:
    'Self-hostable, multi-tenant messaging API: transactional email, SMS, one-time codes, contacts and segments, ' +
    'templates, sending domains, inbound mail, journeys, analytics, webhooks and billing reads. ' +
    'Public endpoints authenticate with `Authorization: Bearer <API key>`; the admin API (tag `admin`) with the ' +
    "operator's admin token. Every response carries an `x-request-id` header.",
};

/** What the areas add beyond their routes: OpenAPI 3.1 `webhooks` and the schemas they refer to. */
interface OpenApiExtras {
  webhooks: Record<string, unknown>;
  schemas: Record<string, unknown>;
}

export async function registerOpenApi(
  app: FastifyInstance,
  config: Pick<Config, 'apiPrefix'>,
  extras: OpenApiExtras = { webhooks: {}, schemas: {} },
): Promise<void> {
  // The extras are JSON Schema made by zod (webhooks/event-docs.ts); typed loosely here.
  const openapi = {
    openapi: '3.1.0',
    info: OPENAPI_INFO,
    tags: [
      { name: 'platform', description: 'Keys, identity and the service itself' },
      { name: 'admin', description: 'Operator API at /admin/v1, authenticated with HERALD_ADMIN_TOKEN' },
    ],
    webhooks: extras.webhooks,
    components: {
      schemas: extras.schemas,
      securitySchemes: {
        apiKey: { type: 'http', scheme: 'bearer', description: 'A team API key (`hk_…`)' },
        adminToken: { type: 'http', scheme: 'bearer', description: 'HERALD_ADMIN_TOKEN' },
      },
    },
  } as FastifyDynamicSwaggerOptions['openapi'];
  await app.register(swagger, { openapi, transform: jsonSchemaTransform });
  await app.register(scalar, {
    routePrefix: `${config.apiPrefix}/docs` as `/${string}`,
    configuration: { url: `${config.apiPrefix}/v1/openapi.json`, title: 'Herald API reference' },
  });
}

/** Registered inside the API prefix. */
export function registerOpenApiRoutes(api: FastifyInstance): void {
  api.get('/v1/openapi.json', { schema: { hide: true }, config: { access: 'public' } }, async () => api.swagger());
}
