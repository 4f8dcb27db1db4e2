// POST /v1/contactBooks/{contactBookId}/segments/preview (Herald extension): the count, problems
// and first contacts of a definition that is not saved, for the dashboard's live count while a
// segment is edited. The definition passes the same schema and checks as a create (or, with
// segmentId, as that segment's update) and is evaluated as the stored row would be; nothing is
// written. FULL access and the per-team rate limit like every segment route.
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { Clock } from '../platform/clock.ts';
import { principalOf } from '../platform/auth/plugin.ts';
import { notFound } from '../platform/errors.ts';
import { getBook } from './books.ts';
import { countSegment, readySegment, unsavedSegment } from './evaluate.ts';
import { segmentContactsPage } from './matching-queries.ts';
import { assertDefinitionOfBook } from './problems.ts';
import { getSegment } from './queries.ts';
import * as s from './schemas.ts';
import { segmentContactView } from './view.ts';

/** `reads`: where the count and the contacts are read, as the GETs do (a replica when set). */
type PreviewDeps = { db: Kysely<Database>; reads: Kysely<Database>; clock: Clock };

export function registerSegmentPreviewRoute(app: FastifyInstance, deps: PreviewDeps): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { db, reads, clock } = deps;
  api.post(
    '/v1/contactBooks/:contactBookId/segments/preview',
    {
      config: { access: 'full' },
      schema: {
        tags: ['segments'],
        security: [{ apiKey: [] }],
        summary: 'Count an unsaved segment definition (Herald extension)',
        description: `Checks the definition as creating a segment does (400 naming the field), then answers its live count, problems and first ${s.PREVIEW_CONTACTS} contacts (the view of a segment's contacts) without storing anything. With segmentId, checks it as redefining that segment of the book does.`,
        params: s.BookParams,
        body: s.PreviewSegmentBody,
        response: {
          200: s.SegmentPreview,
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
      const { definition, segmentId } = request.body;
      const book = await getBook(db, teamId, request.params.contactBookId);
      if (!book) throw notFound('Contact book');
      let stored;
      if (segmentId !== undefined) {
        const row = await getSegment(db, teamId, book.id, segmentId);
        if (!row) throw notFound('Segment');
        stored = (await readySegment(db, row, book.variables)).definition;
      }
      await assertDefinitionOfBook(db, teamId, book, definition, stored);
      const now = clock.now();
      const segment = await unsavedSegment(db, teamId, book, definition, now);
      const rows = await segmentContactsPage(reads, segment, now, null, s.PREVIEW_CONTACTS);
      const count = await countSegment(reads, segment, now);
      return {
        count,
        problems: segment.problems,
        contacts: rows.slice(0, s.PREVIEW_CONTACTS).map(segmentContactView),
      };
    },
  );
}
