// The team's own suppression list (Herald extension, issue 46): list (cursor-paged, filter by
// address), add, remove. Reads: `teamAdminRead`; changes: `teamAdminManage` (platform/auth/policy.ts).
// An add goes through the one upsert the bounce and complaint reports use (upsertSuppressions), so
// the same rule holds: a complaint replaces an earlier reason, nothing else replaces one. Each change
// is one transaction with its audit log entry. The send path and delivery read the table every time,
// so a change applies from the next send on.
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { auditChange } from '../billing/index.ts';
import { principalOf } from '../platform/auth/plugin.ts';
import type { Clock } from '../platform/clock.ts';
import type { Secrets } from '../platform/crypto.ts';
import { notFound } from '../platform/errors.ts';
import { cursorPage, decodeCursor, encodeCursor } from '../platform/pagination.ts';
import { deleteSuppression, getSuppression, listSuppressions, upsertSuppressions } from './suppression-queries.ts';
import * as s from './suppression-schemas.ts';

const LIST = 'suppressions';
const ROUTE = { tags: ['suppressions'], security: [{ apiKey: [] }] };
const ERRORS = { 400: s.ErrorBody, 401: s.ErrorBody, 403: s.ErrorBody, 404: s.ErrorBody };

export function registerSuppressionRoutes(
  app: FastifyInstance,
  deps: { db: Kysely<Database>; clock: Clock; secrets: Secrets },
): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { db, clock, secrets } = deps;

  api.get(
    '/v1/suppressions',
    {
      config: { access: 'teamAdminRead' },
      schema: {
        ...ROUTE,
        summary: "List the team's suppressed addresses, newest first (Herald extension)",
        description:
          `Addresses the team does not send to: hard bounces, complaints and those it added. Cursor-paged: pass nextCursor back as cursor; ` +
          `limit 1 to ${s.LIST_LIMIT_MAX} (default ${s.LIST_LIMIT_DEFAULT}).`,
        querystring: s.SuppressionQuery,
        response: { 200: s.SuppressionPage, ...ERRORS },
      },
    },
    async (request) => {
      const { teamId } = principalOf(request);
      const { email, limit, cursor } = request.query;
      const position = cursor === undefined ? null : decodeCursor(secrets, cursor, LIST, teamId);
      // Signed by us, so well-formed unless the format changed between versions: then start over.
      const after =
        position !== null && typeof position[0] === 'string' && typeof position[1] === 'string'
          ? ([position[0], position[1]] as const)
          : null;
      const rows = await listSuppressions(db, teamId, email, after, limit);
      const page = cursorPage(rows, limit, (last) => encodeCursor(secrets, LIST, teamId, [last.position, last.email]));
      return { data: page.data.map(s.suppressionView), nextCursor: page.nextCursor };
    },
  );

  api.post(
    '/v1/suppressions',
    {
      config: { access: 'teamAdminManage' },
      schema: {
        ...ROUTE,
        summary: "Add an address to the team's suppression list (Herald extension)",
        description:
          'Sends to it are SUPPRESSED from the next send on. 201 when added; 200 with the row as it stands when the address was ' +
          'already listed (a COMPLAINT replaces an earlier reason; nothing else does).',
        body: s.AddSuppressionBody,
        response: { 200: s.Suppression, 201: s.Suppression, ...ERRORS },
      },
    },
    async (request, reply) => {
      const principal = principalOf(request);
      const { teamId } = principal;
      const { email, reason } = request.body;
      const now = clock.now();
      const { row, added } = await db.transaction().execute(async (tx) => {
        const [written] = await upsertSuppressions(tx, [{ team_id: teamId, email, reason, email_id: null }], now);
        const status = written?.inserted ? 201 : 200;
        if (written) {
          await auditChange(tx, principal, {
            action: 'suppression.added',
            target: email,
            method: 'POST',
            path: '/v1/suppressions',
            status,
            at: now,
          });
        }
        return { row: (await getSuppression(tx, teamId, email))!, added: status === 201 };
      });
      return reply.code(added ? 201 : 200).send(s.suppressionView(row));
    },
  );

  api.delete(
    '/v1/suppressions/:email',
    {
      config: { access: 'teamAdminManage' },
      schema: {
        ...ROUTE,
        summary: "Remove an address from the team's suppression list (Herald extension)",
        description: 'Sending to it is allowed again from the next send on. 404 when the address is not listed.',
        params: s.SuppressionParams,
        response: { 200: s.RemovedSuppression, ...ERRORS },
      },
    },
    async (request) => {
      const principal = principalOf(request);
      const { email } = request.params;
      const now = clock.now();
      await db.transaction().execute(async (tx) => {
        if (!(await deleteSuppression(tx, principal.teamId, email))) throw notFound('suppression');
        await auditChange(tx, principal, {
          action: 'suppression.removed',
          target: email,
          method: 'DELETE',
          path: `/v1/suppressions/${encodeURIComponent(email)}`,
          status: 200,
          at: now,
        });
      });
      return { email, deleted: true as const };
    },
  );
}
