// OpenAPI 3.1 generated from the route schemas (zod via fastify-type-provider-zod), served at
// {prefix}/v1/openapi.json with an interactive reference at {prefix}/docs. The committed
// openapi.json is checked for drift by `npm run check`.
import swagger, { type FastifyDynamicSwaggerOptions } from '@fastify/swagger';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import fs from 'node:fs';
import { lazy } from './lazy.ts';
import { addOperationExamples, type OpenApiDocument } from './openapi-examples.ts';

// The document's version is the release's (package.json), so a client can tell which build it reads.
const packageJson = JSON.parse(fs.readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
  version: string;
};

/** The release this build is (package.json): the document's version, and what GET /v1/session shows. */
export const HERALD_VERSION = packageJson.version;

const OPENAPI_INFO = {
  title: 'Herald API',
  version: HERALD_VERSION,
  license: { name: 'MIT', identifier: 'MIT' },
  description: [
    'Self-hostable, multi-tenant messaging API that delivers its own mail. What it does today:',
    '',
    '- Email: single and batch sends, cc/bcc, attachments, scheduling, idempotency, open and click tracking',
    "- Sending domains with their own DKIM keys and DNS verification; Herald's own mail domain for first sends",
    '- Templates (HTML or a block document), contact books, contacts, live segments, journeys',
    '- Inbound mail to team inboxes, bounce and complaint reports, suppressions',
    "- SMS (Twilio, Africa's Talking, Termii) from a prepaid wallet; one-time codes by email or SMS",
    '- Analytics, signed webhooks with a call log, billing reads',
    '- The admin API for operators (tag `admin`)',
    '',
    'Public endpoints authenticate with `Authorization: Bearer <API key>`; the admin API with the ' +
      "operator's admin token. Errors are `{error: {code, message}}` (the contract's few exceptions aside); " +
      'cursor-paged lists return `nextCursor`. Both conventions: `docs/conventions.md` in the source tree. ' +
      'Every response carries an `x-request-id` header.',
  ].join('\n'),
};

/** What the areas add beyond their routes: OpenAPI 3.1 `webhooks` and the schemas they refer to. */
interface OpenApiExtras {
  webhooks: Record<string, unknown>;
  schemas: Record<string, unknown>;
}

export async function registerOpenApi(
  app: FastifyInstance,
  config: { apiPrefix: string; publicUrl: string },
  extras: OpenApiExtras = { webhooks: {}, schemas: {} },
): Promise<void> {
  // The extras are JSON Schema made by zod (webhooks/event-docs.ts); typed loosely here.
  const openapi = {
    openapi: '3.1.0',
    info: OPENAPI_INFO,
    servers: [{ url: config.publicUrl, description: 'This deployment (HERALD_PUBLIC_URL)' }],
    // Every operation needs a team API key unless it says otherwise (admin routes: the admin token).
    security: [{ apiKey: [] }],
    tags: [
      { name: 'platform', description: 'Keys, identity and the service itself' },
      { name: 'admin', description: 'Operator API at /admin/v1, authenticated with HERALD_ADMIN_TOKEN' },
      {
        name: 'session',
        description:
          "The dashboard's sign-in and session (the herald_session cookie). With the cookie, every endpoint answers " +
          'as for a full access key made by the signed-in member in the chosen team (X-Herald-Team); writes also need ' +
          'X-CSRF-Token and an Origin of HERALD_PUBLIC_URL',
      },
    ],
    webhooks: extras.webhooks,
    components: {
      schemas: extras.schemas,
      securitySchemes: {
        apiKey: { type: 'http', scheme: 'bearer', description: 'A team API key (`hk_…`)' },
        adminToken: { type: 'http', scheme: 'bearer', description: 'HERALD_ADMIN_TOKEN' },
        sessionCookie: {
          type: 'apiKey',
          in: 'cookie',
          name: 'herald_session',
          description: 'A dashboard session, set by POST /v1/session',
        },
      },
    },
  } as FastifyDynamicSwaggerOptions['openapi'];
  await app.register(swagger, {
    openapi,
    transform: jsonSchemaTransform,
    // jsonSchemaTransformObject adds the schemas registered with an id (`.meta({id})`) to
    // components, where the routes' `$ref`s point.
    transformObject: (document) => {
      const finished = jsonSchemaTransformObject(document);
      finishDocument(finished as OpenApiDocument, config.apiPrefix);
      return finished;
    },
  });
  serveReference(app, config.apiPrefix);
}

/**
 * The interactive reference (Scalar's page and its 4 MB script) lives in a small app of its own,
 * built at the first visit: loading Scalar's package is most of what a start would spend on it.
 */
function serveReference(app: FastifyInstance, apiPrefix: string): void {
  const routePrefix = `${apiPrefix}/docs` as `/${string}`;
  const reference = lazy(async () => {
    const { default: scalar } = await import('@scalar/fastify-api-reference');
    const docs = Fastify({ logger: false });
    await docs.register(scalar, {
      routePrefix,
      configuration: {
        url: `${apiPrefix}/v1/openapi.json`,
        title: 'Herald API reference',
        // A self-hosted reference: none of Scalar's hosted products (developer toolbar with share and
        // deploy, the AI agent, MCP), no telemetry, no fonts fetched from Scalar's CDN.
        showDeveloperTools: 'never',
        agent: { disabled: true },
        mcp: { disabled: true },
        telemetry: false,
        withDefaultFonts: false,
        documentDownloadType: 'json',
      },
    });
    return docs;
  });
  const answer = async (request: FastifyRequest, reply: FastifyReply) => {
    const answered = await (await reference()).inject({ method: 'GET', url: request.url });
    return reply.code(answered.statusCode).headers(answered.headers).send(answered.rawPayload);
  };
  const route = { schema: { hide: true }, config: { access: 'public' as const } };
  app.get(routePrefix, route, answer);
  app.get(`${routePrefix}/*`, route, answer);
}

/**
 * Operations that declare no security are provider callbacks, checked by their own signatures:
 * they say so rather than inherit the API key. Then every request and response gets an example.
 */
function finishDocument(document: OpenApiDocument, apiPrefix: string): void {
  for (const operations of Object.values(document.paths ?? {})) {
    for (const operation of Object.values(operations)) operation.security ??= [];
  }
  dropUnusedInputCopies(document);
  addOperationExamples(document, apiPrefix);
}

/** zod registers an `XInput` twin of every named schema; only the ones a request uses are kept. */
function dropUnusedInputCopies(document: OpenApiDocument): void {
  const schemas = document.components?.schemas ?? {};
  const text = JSON.stringify(document);
  for (const name of Object.keys(schemas)) {
    const twinOf = name.endsWith('Input') ? name.slice(0, -'Input'.length) : null;
    if (twinOf !== null && twinOf in schemas && !text.includes(`"#/components/schemas/${name}"`)) delete schemas[name];
  }
}

/** Registered inside the API prefix. */
export function registerOpenApiRoutes(api: FastifyInstance): void {
  api.get('/v1/openapi.json', { schema: { hide: true }, config: { access: 'public' } }, async () => api.swagger());
}
