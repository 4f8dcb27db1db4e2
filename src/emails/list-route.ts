// GET /v1/emails: the contract's list (page, limit, dates, domains; {data, count}) answers as it
// always has; Herald's extensions filter by status, search and campaign, page by cursor (no OFFSET,
// no total: what a log of millions needs) and leave the bodies out (fields=summary).
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { principalOf } from '../platform/auth/plugin.ts';
import { badRequest } from '../platform/errors.ts';
import type { Db } from '../db/handle.ts';
import {
  listEmailsByCursor,
  listEmailsByPage,
  type EmailListFilter,
  type EmailListPosition,
  type EmailListRow,
} from './list-queries.ts';
import * as s from './schemas.ts';
import { emailListView } from './views.ts';

const LIST = 'emails';
const AT = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/;
const ID = /^[\w-]{1,64}$/;

/**
 * Opaque cursors: the list, team, direction and an email's position. Not signed (these routes get
 * no instance secret): an edited one only moves within the team's own list, as every statement is
 * scoped by team; a malformed one, or another team's, is a 400.
 */
function encodeCursor(teamId: number, direction: EmailListPosition['direction'], row: EmailListRow): string {
  const body = { l: LIST, t: teamId, d: direction === 'older' ? 'o' : 'n', a: row.position_at, i: row.id };
  return Buffer.from(JSON.stringify(body)).toString('base64url');
}

const CursorBody = z.object({
  l: z.literal(LIST),
  t: z.number(),
  d: z.enum(['o', 'n']),
  a: z
    .string()
    .regex(AT)
    .refine((at) => !Number.isNaN(Date.parse(at))),
  i: z.string().regex(ID),
});

function decodeCursor(teamId: number, cursor: string): EmailListPosition {
  let parsed: unknown = null;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    // answered below, as any other cursor that is not one of ours
  }
  const body = CursorBody.safeParse(parsed);
  if (!body.success || body.data.t !== teamId)
    throw badRequest('cursor: not a cursor of this list; pass back a nextCursor or prevCursor as it was given');
  return { direction: body.data.d === 'o' ? 'older' : 'newer', at: body.data.a, id: body.data.i };
}

const description =
  `page from 1; limit 1 to ${s.LIST_LIMIT_MAX} (default ${s.LIST_LIMIT_DEFAULT}); startDate and endDate bound createdAt (inclusive); ` +
  "domainId may repeat. A key limited to a domain sees only that domain's emails. Herald extensions: status (latestStatus, " +
  'may repeat), search, campaignId; fields=summary leaves html and text null. Cursor paging (paging=cursor, then pass ' +
  'nextCursor or prevCursor back as cursor) reads any page of a log of millions as fast as the first: no OFFSET, and no ' +
  'total, so count is then the number of emails in data. New emails never shift the older pages: each email appears once ' +
  'walking nextCursor to its end. A prevCursor that reaches the newest emails answers the first page.';

export function registerEmailListRoute(app: FastifyInstance, deps: { db: Db }): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const errors = { 400: s.ErrorBody, 401: s.ErrorBody, 403: s.ErrorBody, 404: s.ErrorBody, 429: s.ErrorBody };
  api.get(
    '/v1/emails',
    {
      config: { access: 'full' },
      schema: {
        tags: ['emails'],
        security: [{ apiKey: [] }],
        summary: 'List emails, newest first',
        description,
        querystring: s.ListEmailsQuery,
        response: { 200: s.EmailList, ...errors },
      },
    },
    async (request) => {
      const principal = principalOf(request);
      const { teamId } = principal;
      const q = request.query;
      let domainIds = q.domainId === undefined ? null : Array.isArray(q.domainId) ? q.domainId : [q.domainId];
      if (principal.domainId !== null)
        domainIds = (domainIds ?? [principal.domainId]).filter((id) => id === principal.domainId);
      const filter: EmailListFilter = {
        startDate: q.startDate ? new Date(q.startDate) : null,
        endDate: q.endDate ? new Date(q.endDate) : null,
        domainIds,
        campaignId: q.campaignId ?? null,
        statuses: q.status === undefined ? null : Array.isArray(q.status) ? q.status : [q.status],
        search: q.search ?? null,
      };
      const { db } = deps;
      if (q.paging === 'offset' && q.cursor === undefined) {
        // The contract's answer, exactly: {data, count}.
        const { rows, count } = await listEmailsByPage(db, teamId, filter, q);
        return { data: rows.map(emailListView), count };
      }
      if (q.page > 1) throw badRequest('page: cursor paging has no page numbers; leave page out and pass cursor');
      const position = q.cursor === undefined ? null : decodeCursor(teamId, q.cursor);
      const read = (from: EmailListPosition | null) =>
        listEmailsByCursor(db, teamId, filter, { position: from, limit: q.limit, fields: q.fields });
      let { rows, more } = await read(position);
      let newest = position === null;
      // Back at the newest emails: the first page, whole, rather than the few left above the cursor.
      if (position?.direction === 'newer' && !more) {
        ({ rows, more } = await read(null));
        newest = true;
      }
      const first = rows[0];
      const last = rows[rows.length - 1];
      const olderExist = position?.direction === 'newer' && !newest ? true : more;
      const newerExist = newest ? false : position?.direction === 'newer' ? more : true;
      return {
        data: rows.map(emailListView),
        count: rows.length,
        nextCursor: olderExist && last ? encodeCursor(teamId, 'older', last) : null,
        prevCursor: newerExist && first ? encodeCursor(teamId, 'newer', first) : null,
      };
    },
  );
}
