// Contacts of a contact book (FULL). Errors use the contract's `{error: {code, message}}` bodies
// (the flat exception covers the contact-book endpoints only). Another team's book or contact: 404.
import { notFound } from '../platform/errors.ts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { Clock } from '../platform/clock.ts';
import { principalOf } from '../platform/auth/plugin.ts';
import { addContacts, createContact, patchContact, removeContacts, upsertContact } from './contact-writes.ts';
import { getBook } from './book-queries.ts';
import { getContact, listContacts } from './queries.ts';
import * as s from './schemas.ts';
import { contactView } from './view.ts';

/** `reads`: where the list runs (a replica when set, app.ts); everything else uses `db`. */
type ContactDeps = { db: Kysely<Database>; reads?: Kysely<Database>; clock: Clock };

export function registerContactRoutes(app: FastifyInstance, deps: ContactDeps): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { db } = deps;
  const common = { tags: ['contacts'], security: [{ apiKey: [] }] };
  const errors = { 400: s.ErrorBody, 401: s.ErrorBody, 403: s.ErrorBody, 404: s.ErrorBody, 429: s.ErrorBody };
  const access = { access: 'full' as const };
  const base = '/v1/contactBooks/:contactBookId/contacts';

  async function requireBook(teamId: number, bookId: string): Promise<void> {
    if (!(await getBook(db, teamId, bookId))) throw notFound('Contact book');
  }

  api.get(
    base,
    {
      config: access,
      schema: {
        ...common,
        summary: "List a book's contacts in id (creation) order",
        description:
          'Filters `emails` and `ids` take several values comma-separated (`emails=a@x.io,b@x.io`), repeated ' +
          '(`emails=a@x.io&emails=b@x.io`) or both, at most 1,000 each; emails match lower-cased; both filters together must both match; an empty one filters nothing. ' +
          `page 1 to ${s.LIST_PAGE_MAX} (default 1), limit 1 to ${s.LIST_LIMIT_MAX} (default ${s.LIST_LIMIT_DEFAULT}).`,
        params: s.BookParams,
        querystring: s.ListContactsQuery,
        response: { 200: s.Contact.array(), ...errors },
      },
    },
    async (request) => {
      const { teamId } = principalOf(request);
      await requireBook(teamId, request.params.contactBookId);
      return (await listContacts(deps.reads ?? db, teamId, request.params.contactBookId, request.query)).map(
        contactView,
      );
    },
  );

  api.post(
    base,
    {
      config: access,
      schema: {
        ...common,
        summary: 'Add a contact',
        description:
          'The email is stored trimmed and lower-cased and is unique within the book: a second contact with it answers 409 NOT_UNIQUE (PUT or bulk add upsert).',
        params: s.BookParams,
        body: s.ContactInput,
        response: { 200: s.ContactIdBody, 409: s.ErrorBody, ...errors },
      },
    },
    async (request) => ({
      contactId: await createContact(deps, principalOf(request).teamId, request.params.contactBookId, request.body),
    }),
  );

  api.post(
    `${base}/bulk`,
    {
      config: access,
      schema: {
        ...common,
        summary: `Add or update up to ${s.BULK_MAX} contacts by email, all or nothing`,
        description:
          'Upserts by email in one transaction: one invalid entry refuses the whole request (400 naming it) and nothing is stored. ' +
          'An address given twice is one contact (later fields win). Existing contacts keep fields left out. count is how many contacts were added or updated.',
        params: s.BookParams,
        body: s.BulkAddBody,
        response: { 200: s.BulkAdded, ...errors },
      },
    },
    async (request) => {
      const { created, updated } = await addContacts(
        deps,
        principalOf(request).teamId,
        request.params.contactBookId,
        request.body,
      );
      return { message: `${created} contacts added, ${updated} updated`, count: created + updated };
    },
  );

  api.delete(
    `${base}/bulk`,
    {
      config: access,
      schema: {
        ...common,
        summary: `Delete up to ${s.BULK_MAX} contacts by id`,
        description: 'Ids that are not contacts of the book are skipped; count is how many were deleted.',
        params: s.BookParams,
        body: s.BulkDeleteBody,
        response: { 200: s.BulkDeleted, ...errors },
      },
    },
    async (request) => {
      const { teamId } = principalOf(request);
      await requireBook(teamId, request.params.contactBookId);
      const count = await removeContacts(deps, teamId, request.params.contactBookId, [
        ...new Set(request.body.contactIds),
      ]);
      return { success: true, count };
    },
  );

  api.get(
    `${base}/:contactId`,
    {
      config: access,
      schema: {
        ...common,
        summary: 'Read a contact',
        params: s.ContactParams,
        response: { 200: s.Contact, ...errors },
      },
    },
    async (request) => {
      const row = await getContact(
        db,
        principalOf(request).teamId,
        request.params.contactBookId,
        request.params.contactId,
      );
      if (!row) throw notFound('Contact');
      return contactView(row);
    },
  );

  api.patch(
    `${base}/:contactId`,
    {
      config: access,
      schema: {
        ...common,
        summary: 'Change a contact',
        description: 'Send only what changes; properties sent replace the stored map. The email is changed with PUT.',
        params: s.ContactParams,
        body: s.PatchContactBody,
        response: { 200: s.ContactIdBody, ...errors },
      },
    },
    async (request) => {
      const { contactBookId, contactId } = request.params;
      return {
        contactId: await patchContact(deps, principalOf(request).teamId, contactBookId, contactId, request.body),
      };
    },
  );

  api.put(
    `${base}/:contactId`,
    {
      config: access,
      schema: {
        ...common,
        summary: 'Create or update a contact',
        description:
          'With an email: the path contactId must be the contact that email belongs to (updated), or the email must be new to the book ' +
          '(the contact at the path id takes it; when there is none a contact is created, with a new id returned as contactId). ' +
          'An email that belongs to another contact answers 409 NOT_UNIQUE. Without an email the contact must exist (404 otherwise) and is updated by id.',
        params: s.ContactParams,
        body: s.PutContactBody,
        response: { 200: s.ContactIdBody, 409: s.ErrorBody, ...errors },
      },
    },
    async (request) => {
      const { contactBookId, contactId } = request.params;
      return {
        contactId: await upsertContact(deps, principalOf(request).teamId, contactBookId, contactId, request.body),
      };
    },
  );

  api.delete(
    `${base}/:contactId`,
    {
      config: access,
      schema: {
        ...common,
        summary: 'Delete a contact',
        params: s.ContactParams,
        response: { 200: s.ContactDeleted, ...errors },
      },
    },
    async (request) => {
      const { contactBookId, contactId } = request.params;
      if ((await removeContacts(deps, principalOf(request).teamId, contactBookId, [contactId])) === 0)
        throw notFound('Contact');
      return { success: true };
    },
  );
}
