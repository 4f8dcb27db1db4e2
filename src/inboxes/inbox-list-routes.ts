// GET /v1/inbound/inboxes and /v1/inbound/inboxes/{id} (Herald extensions beside the contract's
// Inbound endpoints, FULL like them): the team's live inboxes, newest first, each with its address
// and when it last received mail, so an inbox that has received nothing yet can be shown too. A
// deleted inbox, another team's or none answers 404 alike. Inboxes are made and deleted by the
// operator (the admin API), not here.
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { principalOf } from '../platform/auth/plugin.ts';
import type { Secrets } from '../platform/crypto.ts';
import { notFound } from '../platform/errors.ts';
import { cursorPage, decodeCursor, encodeCursor } from '../platform/pagination.ts';
import { getLiveInbox, listInboxesPage } from './queries.ts';
import * as s from './schemas.ts';
import { inboxView } from './view.ts';

const LIST = 'inboxes';

// Registered by routes.ts (registerInboundRoutes), so app.ts registers the inbound endpoints once.
export function registerInboxListRoutes(app: FastifyInstance, deps: { db: Kysely<Database>; secrets: Secrets }): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const common = { tags: ['inbound'], security: [{ apiKey: [] }] };
  const errors = { 400: s.ErrorBody, 401: s.ErrorBody, 403: s.ErrorBody, 404: s.ErrorBody, 429: s.ErrorBody };

  api.get(
    '/v1/inbound/inboxes',
    {
      config: { access: 'full' },
      schema: {
        ...common,
        summary: "List the team's inboxes, newest first (Herald extension)",
        description: `limit 1 to ${s.INBOX_LIST_LIMIT_MAX} (default ${s.INBOX_LIST_LIMIT_DEFAULT}); pass nextCursor back as cursor. Deleted inboxes are left out (their messages stay listed).`,
        querystring: s.ListInboxesQuery,
        response: { 200: s.InboxList, ...errors },
      },
    },
    async (request) => {
      const { teamId } = principalOf(request);
      const { cursor, limit } = request.query;
      const position = cursor === undefined ? undefined : decodeCursor(deps.secrets, cursor, LIST, teamId);
      const after =
        position === undefined ? undefined : { createdAt: new Date(String(position[0])), id: String(position[1]) };
      const rows = await listInboxesPage(deps.db, teamId, { after, limit: limit + 1 });
      const page = cursorPage(rows, limit, (last) =>
        encodeCursor(deps.secrets, LIST, teamId, [last.created_at.toISOString(), last.id]),
      );
      return { data: page.data.map(inboxView), nextCursor: page.nextCursor };
    },
  );

  api.get(
    '/v1/inbound/inboxes/:id',
    {
      config: { access: 'full' },
      schema: {
        ...common,
        summary: 'Read one inbox (Herald extension)',
        params: s.InboundIdParams,
        response: { 200: s.Inbox, ...errors },
      },
    },
    async (request) => {
      const { teamId } = principalOf(request);
      const row = await getLiveInbox(deps.db, teamId, request.params.id);
      if (row === undefined) throw notFound('inbox');
      return inboxView(row);
    },
  );
}
