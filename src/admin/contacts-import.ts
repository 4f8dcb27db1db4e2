// POST /admin/v1/teams/{teamId}/contact-books/{contactBookId}/contacts/import: one batch of a CSV
// import (`herald admin contacts import`), stored by the contacts area's bulk add (addContacts): at
// most 1,000 contacts, upserted by email in one transaction.
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { addContacts, BULK_MAX, ContactInput } from '../contacts/index.ts';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { Clock } from '../platform/clock.ts';
import { serialIdParam } from '../platform/serial-id.ts';
import { AdminError } from './schemas.ts';
import { requireTeam } from './route-kit.ts';

const ImportParams = z.object({
  teamId: serialIdParam(),
  contactBookId: z.string().min(1).max(100),
});
const ImportBody = z.object({
  contacts: ContactInput.array()
    .min(1)
    .max(BULK_MAX)
    .describe(`1 to ${BULK_MAX} contacts, the public bulk add's shape`),
});
const Imported = z.object({
  message: z.string(),
  count: z.number().int(),
  created: z.number().int(),
  updated: z.number().int(),
});

export function registerContactImportRoute(app: FastifyInstance, deps: { db: Kysely<Database>; clock: Clock }): void {
  app.withTypeProvider<ZodTypeProvider>().post(
    '/teams/:teamId/contact-books/:contactBookId/contacts/import',
    {
      schema: {
        tags: ['admin'],
        security: [{ adminToken: [] }],
        summary: "Import a batch of contacts into a team's contact book (upsert by email, all or nothing)",
        description:
          'What `herald admin contacts import` sends for each batch of its CSV file. Same rules as POST /v1/contactBooks/{id}/contacts/bulk.',
        params: ImportParams,
        body: ImportBody,
        response: { 200: Imported, 400: AdminError, 401: AdminError, 404: AdminError },
      },
    },
    async (request) => {
      const { teamId, contactBookId } = request.params;
      await requireTeam(deps.db, teamId);
      const { created, updated } = await addContacts(deps, teamId, contactBookId, request.body.contacts);
      return { message: `${created} contacts added, ${updated} updated`, count: created + updated, created, updated };
    },
  );
}
