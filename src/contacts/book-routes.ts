// Contact books (FULL). Contract: 403 and 404 answer with a flat `{error: string}`; the platform
// error handler shapes them, keyed on these route patterns (the param must be `:contactBookId`).
// Books are not tied to domains: a domain-limited full access key reaches every book of its team
// (policy `full` allows domain-limited keys; README.md).
import { badRequest, notFound } from '../platform/errors.ts';
import { bookInUse, contactsLeft } from './hooks.ts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { Clock } from '../platform/clock.ts';
import { principalOf } from '../platform/auth/plugin.ts';
import { newId } from '../platform/ids.ts';
import { checkDoubleOptInContent, checkDoubleOptInFrom } from './book-checks.ts';
import { deleteBook, getBook, insertBook, listBooks, updateBook } from './book-queries.ts';
import * as s from './schemas.ts';
import { bookView } from './view.ts';

type BookDeps = { db: Kysely<Database>; clock: Clock };

export function registerContactBookRoutes(app: FastifyInstance, deps: BookDeps): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { db, clock } = deps;
  const common = { tags: ['contact books'], security: [{ apiKey: [] }] };
  const errors = { 400: s.ErrorBody, 401: s.ErrorBody, 403: s.FlatError, 404: s.FlatError, 429: s.ErrorBody };
  const access = { access: 'full' as const };

  async function checkBookInput(teamId: number, body: s.BookInput): Promise<void> {
    if (body.doubleOptInContent != null) checkDoubleOptInContent(body.doubleOptInContent);
    if (body.doubleOptInFrom != null) await checkDoubleOptInFrom(db, teamId, body.doubleOptInFrom);
  }

  api.get(
    '/v1/contactBooks',
    {
      config: access,
      schema: {
        ...common,
        summary: "List the team's contact books, oldest first",
        description: 'Every book of the team, also for a key limited to one domain (books are not tied to domains).',
        response: { 200: s.ContactBook.array(), 401: s.ErrorBody, 403: s.FlatError, 429: s.ErrorBody },
      },
    },
    async (request) => (await listBooks(db, principalOf(request).teamId)).map(bookView),
  );

  api.post(
    '/v1/contactBooks',
    {
      config: access,
      schema: {
        ...common,
        summary: 'Create a contact book',
        description:
          `emoji defaults to ${s.DEFAULT_EMOJI}. doubleOptInFrom must be an address on a verified domain of the team; ` +
          'doubleOptInContent is an editor document (JSON text). With doubleOptInEnabled, new contacts start unsubscribed and unconfirmed ' +
          'and are sent a confirmation email.',
        body: s.CreateBookBody,
        response: { 200: s.ContactBook, ...errors },
      },
    },
    async (request) => {
      const { teamId } = principalOf(request);
      const body = request.body;
      await checkBookInput(teamId, body);
      const now = clock.now();
      const row = await insertBook(
        db,
        teamId,
        newId('cb_', now),
        { ...body, emoji: body.emoji ?? s.DEFAULT_EMOJI },
        now,
      );
      return bookView({ ...row, contact_count: 0 });
    },
  );

  api.get(
    '/v1/contactBooks/:contactBookId',
    {
      config: access,
      schema: {
        ...common,
        summary: 'Read a contact book',
        params: s.BookParams,
        response: { 200: s.ContactBook, ...errors },
      },
    },
    async (request) => {
      const row = await getBook(db, principalOf(request).teamId, request.params.contactBookId);
      if (!row) throw notFound('Contact book');
      return bookView(row);
    },
  );

  api.patch(
    '/v1/contactBooks/:contactBookId',
    {
      config: access,
      schema: {
        ...common,
        summary: 'Change a contact book',
        description:
          'Fields left out are unchanged; properties and variables sent replace the stored ones. Turning double opt-in on or off affects contacts created afterwards only.',
        params: s.BookParams,
        body: s.UpdateBookBody,
        response: { 200: s.ContactBook, ...errors },
      },
    },
    async (request) => {
      const { teamId } = principalOf(request);
      const { contactBookId } = request.params;
      await checkBookInput(teamId, request.body);
      const changed = Object.values(request.body).some((value) => value !== undefined);
      if (changed && !(await updateBook(db, teamId, contactBookId, request.body, clock.now())))
        throw notFound('Contact book');
      const row = await getBook(db, teamId, contactBookId);
      if (!row) throw notFound('Contact book');
      return bookView(row);
    },
  );

  api.delete(
    '/v1/contactBooks/:contactBookId',
    {
      config: access,
      schema: {
        ...common,
        summary: 'Delete a contact book and every contact in it',
        params: s.BookParams,
        response: { 200: s.BookDeleted, ...errors },
      },
    },
    async (request) => {
      const { contactBookId } = request.params;
      const { teamId } = principalOf(request);
      // Contract: refused with 400 while a scheduled or running campaign or an active journey uses
      // the book; the areas that use books answer through hooks.ts.
      await db.transaction().execute(async (tx) => {
        const inUse = await bookInUse(tx, teamId, contactBookId);
        if (inUse !== null) throw badRequest(`the contact book cannot be deleted: ${inUse}`);
        const deleted = await deleteBook(tx, teamId, contactBookId);
        if (deleted === undefined) throw notFound('Contact book');
        // Runs of its contacts on journeys that are not ACTIVE (a paused one) exit now.
        await contactsLeft(tx, { teamId, contactIds: deleted, reason: 'deleted', now: deps.clock.now() });
      });
      return { id: contactBookId, success: true, message: 'Contact book deleted' };
    },
  );
}
