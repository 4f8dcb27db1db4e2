// GET /v1/verify (a Herald extension beside the contract's GET /v1/verify/{id}): the team's codes,
// newest first, cursor-paged, filtered by status, channel and risk level. The same SEND access as
// reading one code: whatever key may read a code by its id may list the team's codes.
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { principalOf } from '../platform/auth/plugin.ts';
import { cursorPage, decodeCursor, encodeCursor } from '../platform/pagination.ts';
import { listVerifications } from './list-queries.ts';
import * as s from './schemas.ts';
import type { VerifyDeps } from './send.ts';
import { deliveryOf, verificationView } from './view.ts';

const LIST = 'verify';

export function registerVerifyListRoute(app: FastifyInstance, deps: Pick<VerifyDeps, 'db' | 'secrets'>): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.get(
    '/v1/verify',
    {
      config: { access: 'send' },
      schema: {
        tags: ['verify'],
        security: [{ apiKey: [] }],
        summary: "List the team's one-time codes, newest first (Herald extension)",
        description:
          `limit 1 to ${s.LIST_LIMIT_MAX} (default ${s.LIST_LIMIT_DEFAULT}); status, channel and riskLevel filter; ` +
          'pass nextCursor back as cursor (with the same filters). Each item is the Verification GET /v1/verify/{id} answers.',
        querystring: s.ListVerificationsQuery,
        response: {
          200: s.VerificationList,
          400: s.ErrorBody,
          401: s.ErrorBody,
          403: s.ErrorBody,
          404: s.ErrorBody,
          429: s.ErrorBody,
        },
      },
    },
    async (request) => {
      const { teamId } = principalOf(request);
      const { cursor, limit, status, channel, riskLevel } = request.query;
      // The cursor names the filters too: a cursor of other filters is another list (400).
      const list = `${LIST}:${status ?? ''}:${channel ?? ''}:${riskLevel ?? ''}`;
      const position = cursor === undefined ? undefined : decodeCursor(deps.secrets, cursor, list, teamId);
      const after =
        position === undefined ? undefined : { createdAt: new Date(String(position[0])), id: String(position[1]) };
      const rows = await listVerifications(deps.db, teamId, { status, channel, riskLevel, after, limit: limit + 1 });
      const page = cursorPage(rows, limit, (last) =>
        encodeCursor(deps.secrets, list, teamId, [last.created_at.toISOString(), last.id]),
      );
      return { data: page.data.map((row) => verificationView(row, deliveryOf(row))), nextCursor: page.nextCursor };
    },
  );
}
