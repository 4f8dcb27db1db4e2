// Segments (FULL): live, saved filters over one contact book. Another team's book or segment answers
// 404 like a missing one. Writes lock the book row, so the 100-per-book and unique-name rules hold
// under concurrent requests.
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { Clock } from '../platform/clock.ts';
import type { Secrets } from '../platform/crypto.ts';
import { principalOf } from '../platform/auth/plugin.ts';
import { ApiError, notFound } from '../platform/errors.ts';
import { newId } from '../platform/ids.ts';
import { cursorPage, decodeCursor, encodeCursor } from '../platform/pagination.ts';
import type { Definition } from './definition.ts';
import { countSegment, readySegment, type ReadySegment } from './evaluate.ts';
import { segmentContactsPage } from './matching-queries.ts';
import { getBook, lockBook } from './books.ts';
import { segmentInUse } from './hooks.ts';
import { registerSegmentPreviewRoute } from './preview-route.ts';
import { assertDefinitionOfBook } from './problems.ts';
import {
  countSegments,
  deleteSegment,
  getSegment,
  insertSegment,
  listSegments,
  nameTaken,
  updateSegment,
} from './queries.ts';
import * as s from './schemas.ts';
import { segmentContactView, segmentView } from './view.ts';

/** `reads`: where the GETs count and page (a replica when set, app.ts); writes and their answers use `db`. */
type SegmentDeps = { db: Kysely<Database>; reads?: Kysely<Database>; clock: Clock; secrets: Secrets };

const nameNotUnique = (name: string) =>
  new ApiError(409, 'NOT_UNIQUE', `a segment named "${name}" already exists in this contact book`);
const contactsList = (segmentId: string) => `segment-contacts:${segmentId}`;
const sameDefinition = (a: Definition, b: Definition) => JSON.stringify(a) === JSON.stringify(b);

export function registerSegmentRoutes(app: FastifyInstance, deps: SegmentDeps): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { db, clock, secrets } = deps;
  const reads = deps.reads ?? db;
  const common = { tags: ['segments'], security: [{ apiKey: [] }] };
  const errors = { 400: s.ErrorBody, 401: s.ErrorBody, 403: s.ErrorBody, 404: s.ErrorBody, 429: s.ErrorBody };
  const access = { access: 'full' as const };
  const base = '/v1/contactBooks/:contactBookId/segments';

  registerSegmentPreviewRoute(app, { db, reads, clock });

  const view = async (segment: ReadySegment, reader = db) =>
    segmentView(segment, await countSegment(reader, segment, clock.now()));

  /** The segment with its live problems; 404 when the book or the segment is not the team's. */
  async function readSegment(teamId: number, contactBookId: string, segmentId: string): Promise<ReadySegment> {
    const book = await getBook(db, teamId, contactBookId);
    if (!book) throw notFound('Contact book');
    const row = await getSegment(db, teamId, contactBookId, segmentId);
    if (!row) throw notFound('Segment');
    return readySegment(db, row, book.variables);
  }

  api.get(
    base,
    {
      config: access,
      schema: {
        ...common,
        summary: "List a contact book's segments, oldest first, each with its live count and problems",
        params: s.BookParams,
        response: { 200: s.SegmentList, ...errors },
      },
    },
    async (request) => {
      const { teamId } = principalOf(request);
      const book = await getBook(db, teamId, request.params.contactBookId);
      if (!book) throw notFound('Contact book');
      const rows = await listSegments(db, teamId, book.id);
      const data = [];
      for (const row of rows) data.push(await view(await readySegment(db, row, book.variables), reads));
      return { data };
    },
  );

  api.post(
    base,
    {
      config: access,
      schema: {
        ...common,
        summary: 'Create a segment',
        description: `At most ${s.SEGMENTS_PER_BOOK_MAX} segments per contact book. A property condition must name a variable of the book, a journey condition a journey of the team, an email_activity condition's campaignId a campaign of the team sent to this book (400 otherwise).`,
        params: s.BookParams,
        body: s.CreateSegmentBody,
        response: { 201: s.Segment, 409: s.ErrorBody, ...errors },
      },
    },
    async (request, reply) => {
      const { teamId } = principalOf(request);
      const { name, description, definition } = request.body;
      const now = clock.now();
      const segment = await db.transaction().execute(async (tx) => {
        const book = await lockBook(tx, teamId, request.params.contactBookId);
        if (!book) throw notFound('Contact book');
        await assertDefinitionOfBook(tx, teamId, book, definition);
        if ((await countSegments(tx, teamId, book.id)) >= s.SEGMENTS_PER_BOOK_MAX) {
          throw new ApiError(400, 'BAD_REQUEST', `a contact book has at most ${s.SEGMENTS_PER_BOOK_MAX} segments`);
        }
        if (await nameTaken(tx, teamId, book.id, name, null)) throw nameNotUnique(name);
        const row = await insertSegment(
          tx,
          teamId,
          { id: newId('sg_', now), contactBookId: book.id, name, description: description ?? null, definition },
          now,
        );
        return readySegment(tx, row, book.variables);
      });
      return reply.code(201).send(await view(segment));
    },
  );

  api.get(
    `${base}/:segmentId`,
    {
      config: access,
      schema: {
        ...common,
        summary: 'Read a segment with its live count and problems',
        params: s.SegmentParams,
        response: { 200: s.Segment, ...errors },
      },
    },
    async (request) => {
      const { contactBookId, segmentId } = request.params;
      return view(await readSegment(principalOf(request).teamId, contactBookId, segmentId), reads);
    },
  );

  api.patch(
    `${base}/:segmentId`,
    {
      config: access,
      schema: {
        ...common,
        summary: 'Rename, describe or redefine a segment',
        description:
          'Fields left out are unchanged. A segment used by an active journey or a live campaign can be renamed but not redefined (400).',
        params: s.SegmentParams,
        body: s.UpdateSegmentBody,
        response: { 200: s.Segment, 409: s.ErrorBody, ...errors },
      },
    },
    async (request) => {
      const { teamId } = principalOf(request);
      const { contactBookId, segmentId } = request.params;
      const { name, description, definition } = request.body;
      const segment = await db.transaction().execute(async (tx) => {
        const book = await lockBook(tx, teamId, contactBookId);
        if (!book) throw notFound('Contact book');
        const current = await getSegment(tx, teamId, book.id, segmentId);
        if (!current) throw notFound('Segment');
        const before = await readySegment(tx, current, book.variables);
        const redefined = definition !== undefined && !sameDefinition(before.definition, definition);
        if (definition !== undefined) await assertDefinitionOfBook(tx, teamId, book, definition, before.definition);
        if (redefined && (await segmentInUse(tx, teamId, segmentId))) {
          throw new ApiError(
            400,
            'BAD_REQUEST',
            'the segment is used by an active journey or a live campaign: it can be renamed but not redefined',
          );
        }
        if (name !== undefined && name !== current.name && (await nameTaken(tx, teamId, book.id, name, segmentId)))
          throw nameNotUnique(name);
        if (name === undefined && description === undefined && definition === undefined) return before; // nothing to change
        const row = await updateSegment(tx, teamId, book.id, segmentId, { name, description, definition }, clock.now());
        if (!row) throw notFound('Segment');
        return readySegment(tx, row, book.variables);
      });
      return view(segment);
    },
  );

  api.delete(
    `${base}/:segmentId`,
    {
      config: access,
      schema: {
        ...common,
        summary: 'Delete a segment',
        description: 'Refused (400) while an active journey or a scheduled or running campaign uses it.',
        params: s.SegmentParams,
        response: { 200: s.DeletedSegment, ...errors },
      },
    },
    async (request) => {
      const { teamId } = principalOf(request);
      const { contactBookId, segmentId } = request.params;
      await db.transaction().execute(async (tx) => {
        const book = await lockBook(tx, teamId, contactBookId);
        if (!book) throw notFound('Contact book');
        if (!(await getSegment(tx, teamId, book.id, segmentId))) throw notFound('Segment');
        if (await segmentInUse(tx, teamId, segmentId)) {
          throw new ApiError(
            400,
            'BAD_REQUEST',
            'the segment is used by an active journey or a live campaign and cannot be deleted',
          );
        }
        await deleteSegment(tx, teamId, book.id, segmentId);
      });
      return { id: segmentId, deleted: true };
    },
  );

  api.get(
    `${base}/:segmentId/contacts`,
    {
      config: access,
      schema: {
        ...common,
        summary: 'The contacts a segment matches right now, ordered by id',
        description: `Cursor-paged: pass back nextCursor; limit 1 to ${s.CONTACTS_LIMIT_MAX} (default ${s.CONTACTS_LIMIT_DEFAULT}). total counts every match. Empty while the segment has problems.`,
        params: s.SegmentParams,
        querystring: s.SegmentContactsQuery,
        response: { 200: s.SegmentContactsPage, ...errors },
      },
    },
    async (request) => {
      const { teamId } = principalOf(request);
      const { contactBookId, segmentId } = request.params;
      const { cursor, limit } = request.query;
      const list = contactsList(segmentId);
      const afterId = cursor === undefined ? null : String(decodeCursor(secrets, cursor, list, teamId)[0] ?? '');
      const segment = await readSegment(teamId, contactBookId, segmentId);
      const now = clock.now();
      const rows = await segmentContactsPage(reads, segment, now, afterId, limit);
      const total = await countSegment(reads, segment, now);
      const page = cursorPage(rows, limit, (last) => encodeCursor(secrets, list, teamId, [last.id]));
      return { data: page.data.map(segmentContactView), nextCursor: page.nextCursor, total };
    },
  );
}
