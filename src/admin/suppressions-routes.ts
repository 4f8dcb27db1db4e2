// Admin API: a team's suppression list (addresses it does not send to: hard bounces, complaints,
// and rows other parts write), read and cleared by the operator (`herald admin suppressions`).
// Deleting a row lets the team send to the address again from the next send on: the send path and
// delivery read the table every time, nothing caches it.
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { deleteSuppression, getSuppression, listSuppressions, type SuppressionRow } from '../feedback/index.ts';
import type { Secrets } from '../platform/crypto.ts';
import { notFound } from '../platform/errors.ts';
import { cursorPage, cursorParam, decodeCursor, encodeCursor, limitParam } from '../platform/pagination.ts';
import { TeamParams } from './schemas.ts';
import { ADMIN_ERRORS, ADMIN_ROUTE, requireTeam } from './route-kit.ts';

const LIMIT_MAX = 100;
const LIMIT_DEFAULT = 50;
const LIST = 'admin-suppressions';

const Address = z
  .string()
  .trim()
  .min(1)
  .max(320)
  .transform((value) => value.toLowerCase());

const SuppressionQuery = z.object({
  email: Address.optional().describe('only this address (case does not matter)'),
  limit: limitParam(LIMIT_MAX, LIMIT_DEFAULT),
  cursor: cursorParam,
});
const SuppressionParams = TeamParams.extend({ email: Address });

const Suppression = z.object({
  email: z.string(),
  reason: z.string().describe('HARD_BOUNCE, COMPLAINT, or what another part recorded'),
  emailId: z.string().nullable().describe('the email whose bounce or complaint added the address'),
  createdAt: z.string(),
});
const SuppressionPage = z.object({ data: Suppression.array(), nextCursor: z.string().nullable() });
const DeletedSuppression = z.object({ email: z.string(), deleted: z.literal(true) });

const view = (row: SuppressionRow) => ({
  email: row.email,
  reason: row.reason,
  emailId: row.email_id,
  createdAt: row.created_at.toISOString(),
});

function afterOf(secrets: Secrets, cursor: string | undefined, teamId: number): readonly [string, string] | null {
  if (cursor === undefined) return null;
  const [position, email] = decodeCursor(secrets, cursor, LIST, teamId);
  // Signed by us, so well-formed unless the format changed between versions: then start over.
  return typeof position === 'string' && typeof email === 'string' ? [position, email] : null;
}

export function registerSuppressionRoutes(
  app: FastifyInstance,
  deps: { db: Kysely<Database>; secrets: Secrets },
): void {
  const admin = app.withTypeProvider<ZodTypeProvider>();
  const { db, secrets } = deps;
  const common = ADMIN_ROUTE;
  const errors = ADMIN_ERRORS;

  admin.get(
    '/teams/:teamId/suppressions',
    {
      schema: {
        ...common,
        summary: "List a team's suppressed addresses, newest first",
        description: `Cursor-paged: pass back nextCursor; limit 1 to ${LIMIT_MAX} (default ${LIMIT_DEFAULT}).`,
        params: TeamParams,
        querystring: SuppressionQuery,
        response: { 200: SuppressionPage, ...errors },
      },
    },
    async (request) => {
      const { teamId } = request.params;
      const { email, limit, cursor } = request.query;
      const after = afterOf(secrets, cursor, teamId);
      await requireTeam(db, teamId);
      const rows = await listSuppressions(db, teamId, email, after, limit);
      const page = cursorPage(rows, limit, (last) => encodeCursor(secrets, LIST, teamId, [last.position, last.email]));
      return { data: page.data.map(view), nextCursor: page.nextCursor };
    },
  );

  admin.get(
    '/teams/:teamId/suppressions/:email',
    {
      schema: {
        ...common,
        summary: 'Read one suppressed address',
        params: SuppressionParams,
        response: { 200: Suppression, ...errors },
      },
    },
    async (request) => {
      const { teamId, email } = request.params;
      await requireTeam(db, teamId);
      const row = await getSuppression(db, teamId, email);
      if (!row) throw notFound('suppression');
      return view(row);
    },
  );

  admin.delete(
    '/teams/:teamId/suppressions/:email',
    {
      schema: {
        ...common,
        summary: "Remove an address from a team's suppression list; sending to it is allowed again",
        params: SuppressionParams,
        response: { 200: DeletedSuppression, ...errors },
      },
    },
    async (request) => {
      const { teamId, email } = request.params;
      await requireTeam(db, teamId);
      if (!(await deleteSuppression(db, teamId, email))) throw notFound('suppression');
      return { email, deleted: true as const };
    },
  );
}
