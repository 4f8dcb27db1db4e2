// GET /v1/whoami (Herald extension): which team and key kind a key is. Useful to check a key, and
// the authenticated no-op the platform benchmark measures (key lookup, access policy, rate limit).
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { API_KEY_KINDS } from '../platform/auth/api-keys.ts';
import { principalOf } from '../platform/auth/plugin.ts';

const Whoami = z.object({
  teamId: z.number().int(),
  keyId: z.string(),
  kind: z.enum(API_KEY_KINDS),
  domainId: z.number().int().nullable(),
  apiRateLimit: z.number().int().describe("requests per second the team's keys may make"),
});

export function registerWhoami(api: FastifyInstance): void {
  api.withTypeProvider<ZodTypeProvider>().get(
    '/v1/whoami',
    {
      config: { access: 'anyKey' },
      schema: {
        tags: ['platform'],
        summary: 'Describe the calling API key (Herald extension)',
        security: [{ apiKey: [] }],
        response: { 200: Whoami },
      },
    },
    async (request) => {
      const principal = principalOf(request);
      return {
        teamId: principal.teamId,
        keyId: principal.keyId,
        kind: principal.kind,
        domainId: principal.domainId,
        apiRateLimit: principal.apiRateLimit,
      };
    },
  );
}
