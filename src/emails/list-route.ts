// GET /v1/emails: the contract's list (page, limit, dates, domains; {data, count}) answers as it
// always has; Herald's extensions filter by status, search and campaign, page by cursor (no OFFSET,
// no total: what a log of millions needs) and leave the bodies out (fields=summary).
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { principalOf } from '../platform/auth/plugin.ts';
import { grouped } from '../platform/grouped-number.ts';
import { badRequest } from '../platform/errors.ts';
import type { Db } from '../db/handle.ts';
import { readCursorPage } from './list-cursor.ts';
import { listEmailsByPage, SEARCH_WINDOW, type EmailListFilter } from './list-queries.ts';
import * as s from './schemas.ts';
import { emailListView } from './views.ts';

const description =
  `page from 1; limit 1 to ${s.LIST_LIMIT_MAX} (default ${s.LIST_LIMIT_DEFAULT}); startDate and endDate bound createdAt (inclusive); ` +
  "domainId may repeat. A key limited to a domain sees only that domain's emails. Herald extensions: status (latestStatus, " +
  'may repeat), search, campaignId; fields=summary leaves html and text null. Cursor paging (paging=cursor, then pass ' +
  'nextCursor or prevCursor back as cursor) reads any page of a log of millions as fast as the first: no OFFSET, and no ' +
  'total, so count is then the number of emails in data. New emails never shift the older pages: each email appears once ' +
  'walking nextCursor to its end. A prevCursor that reaches the newest emails answers the first page. With cursor paging, ' +
  `a text search (not a whole address) reads at most ${grouped(SEARCH_WINDOW)} emails a request: a page ` +
  'may then hold fewer emails than limit, even none, with searchStoppedAt set and a cursor to read on.';

/** keptSince: the first instant retention keeps (an older email is listed no more, as it answers 404). */
export function registerEmailListRoute(app: FastifyInstance, deps: { db: Db; keptSince: () => Date }): void {
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
      const kept = deps.keptSince();
      const filter: EmailListFilter = {
        startDate: q.startDate && new Date(q.startDate) > kept ? new Date(q.startDate) : kept,
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
      return readCursorPage(db, teamId, filter, { cursor: q.cursor, limit: q.limit, fields: q.fields });
    },
  );
}
