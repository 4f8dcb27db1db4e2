// GET /v1/audit-log: the billing reads of the team (who, what, when, outcome) and the changes keys
// made to its API keys, members and suppression list, newest first, for a full access key made by a
// team admin.
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { Database } from '../db/schema.ts';
import { principalOf } from '../platform/auth/plugin.ts';
import type { Secrets } from '../platform/crypto.ts';
import { cursorPage, cursorParam, decodeCursor, encodeCursor, limitParam } from '../platform/pagination.ts';
import { AUDITED_ACTIONS, auditPage, type AuditedChange } from './audit-queries.ts';
import * as s from './schemas.ts';

const LIST = 'audit-log';

export const AuditLogEntry = z
  .object({
    id: z.string(),
    key: z.object({
      id: z.string().nullable(),
      name: z.string().nullable(),
      kind: z.string(),
      memberId: z.number().int().nullable().describe('the team member who made the key'),
    }),
    method: z.string(),
    path: z.string().describe('without the API prefix, e.g. /v1/billing/transactions'),
    query: z.string().describe('the query string as sent, empty when none'),
    status: z.number().int(),
    errorCode: z.string().nullable(),
    action: z.enum(AUDITED_ACTIONS).nullable().describe('the change the request made; null for a billing read'),
    target: z
      .string()
      .nullable()
      .describe('the API key id, or the address of the suppression or member changed; null for a billing read'),
    createdAt: z.string(),
  })
  .meta({ id: 'AuditLogEntry' });

const AuditLogQuery = z.object({ cursor: cursorParam, limit: limitParam(100, 20) });

export function registerAuditRoutes(app: FastifyInstance, deps: { db: Kysely<Database>; secrets: Secrets }): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.get(
    '/v1/audit-log',
    {
      config: { access: 'auditLog' },
      schema: {
        tags: ['billing'],
        security: [{ apiKey: [] }],
        summary: 'Read the audit log of billing reads and of key, member and suppression changes, newest first',
        description:
          'Every billing read with its key (id, name, kind, maker), path and query, status and error code; and every API key created or revoked, member invited, changed or removed, and suppression added or removed through the API, with its action and target. limit 1 to 100 (default 20); pass nextCursor back as cursor.',
        querystring: AuditLogQuery,
        response: {
          200: z.object({ data: z.array(AuditLogEntry), nextCursor: z.string().nullable() }),
          400: s.ErrorBody,
          401: s.ErrorBody,
          403: s.ErrorBody,
        },
      },
    },
    async (request) => {
      const { teamId } = principalOf(request);
      const { cursor, limit } = request.query;
      const position = cursor === undefined ? undefined : decodeCursor(deps.secrets, cursor, LIST, teamId);
      const after =
        position === undefined ? undefined : { createdAt: new Date(String(position[0])), id: String(position[1]) };
      const rows = await auditPage(deps.db, teamId, after, limit + 1);
      const page = cursorPage(rows, limit, (last) =>
        encodeCursor(deps.secrets, LIST, teamId, [last.created_at.toISOString(), last.id]),
      );
      return {
        data: page.data.map((row) => ({
          id: row.id,
          key: { id: row.api_key_id, name: row.key_name, kind: row.key_kind, memberId: row.member_id },
          method: row.method,
          path: row.path,
          query: row.query,
          status: row.status,
          errorCode: row.error_code,
          action: row.action as AuditedChange['action'] | null,
          target: row.target,
          createdAt: row.created_at.toISOString(),
        })),
        nextCursor: page.nextCursor,
      };
    },
  );
}
