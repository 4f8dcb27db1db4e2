// /v1/inbound/messages (contract: Endpoints › Inbound, FULL): the list (newest first, spam left out,
// optionally one inbox), one message, and its original. Another team's message answers 404 like a
// missing one, and so does an inbox filter naming no inbox of the team. The inboxes themselves:
// inbox-list-routes.ts.
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Kysely } from 'kysely';
import type { BlobStore } from '../adapters/blob-store/index.ts';
import type { Database } from '../db/schema.ts';
import { principalOf } from '../platform/auth/plugin.ts';
import type { Clock } from '../platform/clock.ts';
import type { Secrets } from '../platform/crypto.ts';
import { ApiError, notFound } from '../platform/errors.ts';
import { cursorPage, decodeCursor, encodeCursor } from '../platform/pagination.ts';
import { registerInboxListRoutes } from './inbox-list-routes.ts';
import { readOriginal } from './message-bytes.ts';
import { attachmentsOf, getInboxMessage, inboxIdsMatching, listInboxMessages } from './message-queries.ts';
import * as s from './schemas.ts';
import { inboundMessageView } from './view.ts';

export interface InboundRoutesDeps {
  db: Kysely<Database>;
  clock: Clock;
  secrets: Secrets;
  publicUrl: string;
  /** Where the originals are (message-bytes.ts). */
  blobs: BlobStore;
}

const LIST = 'inbound';

export function registerInboundRoutes(app: FastifyInstance, deps: InboundRoutesDeps): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const common = { tags: ['inbound'], security: [{ apiKey: [] }] };
  const errors = { 400: s.ErrorBody, 401: s.ErrorBody, 403: s.ErrorBody, 404: s.ErrorBody, 429: s.ErrorBody };
  const ctx = () => ({ secrets: deps.secrets, publicUrl: deps.publicUrl, now: deps.clock.now() });

  api.get(
    '/v1/inbound/messages',
    {
      config: { access: 'full' },
      schema: {
        ...common,
        summary: "List messages received by the team's inboxes, newest first (spam left out)",
        description: `limit 1 to ${s.LIST_LIMIT_MAX} (default ${s.LIST_LIMIT_DEFAULT}); inbox: an inbox id (or its address); an inbox the team does not have lists nothing (GET /v1/inbound/inboxes/{id} tells a missing inbox); pass nextCursor back as cursor.`,
        querystring: s.ListInboundQuery,
        response: { 200: s.InboundMessageList, ...errors },
      },
    },
    async (request) => {
      const { teamId } = principalOf(request);
      const { cursor, limit, inbox } = request.query;
      // The cursor names the inbox filter too: a cursor of another filter is another list.
      const list = `${LIST}:${inbox ?? ''}`;
      const position = cursor === undefined ? undefined : decodeCursor(deps.secrets, cursor, list, teamId);
      const after =
        position === undefined ? undefined : { receivedAt: new Date(String(position[0])), id: String(position[1]) };
      const inboxIds = inbox === undefined ? null : await inboxIdsMatching(deps.db, teamId, inbox);
      // The contract's list answers 400 only for its limit and cursor: an inbox the team does not
      // have filters to nothing. A deleted inbox of the team still names its messages.
      const rows = await listInboxMessages(deps.db, teamId, { inboxIds, after, limit: limit + 1 });
      const page = cursorPage(rows, limit, (last) =>
        encodeCursor(deps.secrets, list, teamId, [last.received_at.toISOString(), last.id]),
      );
      const attachments = await attachmentsOf(
        deps.db,
        teamId,
        page.data.map((row) => row.id),
      );
      const view = ctx();
      return {
        data: page.data.map((row) =>
          inboundMessageView(
            row,
            attachments.filter((a) => a.message_id === row.id),
            view,
          ),
        ),
        nextCursor: page.nextCursor,
      };
    },
  );

  api.get(
    '/v1/inbound/messages/:id',
    {
      config: { access: 'full' },
      schema: {
        ...common,
        summary: 'Read one received message (spam included)',
        params: s.InboundIdParams,
        response: { 200: s.InboundMessage, ...errors },
      },
    },
    async (request) => {
      const { teamId } = principalOf(request);
      const row = await getInboxMessage(deps.db, teamId, request.params.id);
      if (row === undefined) throw notFound('inbound message');
      return inboundMessageView(row, await attachmentsOf(deps.db, teamId, [row.id]), ctx());
    },
  );

  api.get(
    '/v1/inbound/messages/:id/raw',
    {
      config: { access: 'full' },
      schema: {
        ...common,
        summary: 'Download the original message as received (.eml)',
        description:
          'The bytes exactly as received, as message/rfc822. Kept HERALD_INBOUND_RETENTION_DAYS (30 by default); after that 422.',
        params: s.InboundIdParams,
        // 200 is the file itself (message/rfc822), not JSON.
        response: { ...errors, 422: s.ErrorBody },
      },
    },
    async (request, reply) => {
      const { teamId } = principalOf(request);
      const raw = await readOriginal(deps.db, deps.blobs, teamId, request.params.id);
      if (raw === undefined) throw notFound('inbound message');
      if (raw === null)
        throw new ApiError(
          422,
          'UNPROCESSABLE_ENTITY',
          'The original message is no longer kept (retention period over)',
        );
      return (
        reply
          .type('message/rfc822')
          .header('content-disposition', `attachment; filename="${request.params.id}.eml"`)
          .header('x-content-type-options', 'nosniff')
          // A Buffer is sent as is (Fastify serialises only objects); the schemas above are the errors'.
          .send(raw as never)
      );
    },
  );

  registerInboxListRoutes(app, deps);
}
