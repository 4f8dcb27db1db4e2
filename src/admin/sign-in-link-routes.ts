// POST /admin/v1/sign-in-links (`herald admin sign-in-link <email>`, operator.md): a one-time
// dashboard sign-in link for a member's address, valid an hour, shown to the operator and mailed to
// nobody (src/sessions/). An address that is a member of no team: 404.
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AdminDeps } from './admin-deps.ts';
import { ApiError } from '../platform/errors.ts';
import { mintSignInLink } from '../sessions/index.ts';
import { ADMIN_ERRORS, ADMIN_ROUTE } from './route-kit.ts';

const SignInLinkBody = z.object({ email: z.email().max(320).describe("a member's address, in any team") });
const SignInLink = z.object({
  url: z.string().describe('{HERALD_PUBLIC_URL}/sign-in/{token}: signs in once, within the hour'),
  expiresAt: z.string(),
});

export function registerSignInLinkRoutes(
  app: FastifyInstance,
  deps: Pick<AdminDeps, 'db' | 'clock' | 'secrets' | 'publicUrl'>,
): void {
  const admin = app.withTypeProvider<ZodTypeProvider>();
  admin.post(
    '/sign-in-links',
    {
      schema: {
        ...ADMIN_ROUTE,
        summary: "A one-time dashboard sign-in link for a member's address",
        description:
          'Signs in as the address (every team it is a member of), once, within an hour. Nothing is mailed: hand it to the ' +
          'person yourself. An address that is a member of no team: 404.',
        body: SignInLinkBody,
        response: { 201: SignInLink, ...ADMIN_ERRORS },
      },
    },
    async (request, reply) => {
      const link = await mintSignInLink(deps, request.body.email, deps.clock.now());
      if (!link) throw new ApiError(404, 'NOT_FOUND', `email: ${request.body.email} is not a member of any team`);
      reply.header('cache-control', 'no-store');
      return reply.code(201).send({ url: link.url, expiresAt: link.expiresAt.toISOString() });
    },
  );
}
