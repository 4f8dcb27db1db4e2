// Admin API: a team's inboxes (operator.md, "More admin API"): create, list, delete.
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { InboxRow } from '../db/schema.ts';
import type { AdminDeps } from './admin-deps.ts';
import { createInbox, listInboxes, removeInbox } from '../inboxes/index.ts';
import { AdminError, TeamParams } from './schemas.ts';
import { ADMIN_ERRORS, ADMIN_ROUTE, requireTeam } from './route-kit.ts';

const CreateInboxBody = z.object({
  name: z.string().trim().min(1).max(200),
  address: z
    .email()
    .max(320)
    .describe("a full address on HERALD_MAIL_DOMAIN or on one of the team's verified sending domains"),
});
const Inbox = z.object({ id: z.string(), name: z.string(), address: z.string(), createdAt: z.string() });
const InboxParams = TeamParams.extend({ id: z.string().min(1).max(64) });
const DeletedInbox = z.object({ id: z.string(), deleted: z.literal(true) });

const inboxView = (row: InboxRow) => ({
  id: row.id,
  name: row.name,
  address: row.address,
  createdAt: row.created_at.toISOString(),
});

export function registerInboxAdminRoutes(
  app: FastifyInstance,
  deps: Pick<AdminDeps, 'db' | 'clock' | 'mailDomain'>,
): void {
  const admin = app.withTypeProvider<ZodTypeProvider>();
  const { db, clock } = deps;
  const common = ADMIN_ROUTE;
  const errors = ADMIN_ERRORS;

  admin.post(
    '/teams/:teamId/inboxes',
    {
      schema: {
        ...common,
        summary: 'Add an inbox: mail to its address (and address+anything) is received for the team',
        params: TeamParams,
        body: CreateInboxBody,
        response: { 201: Inbox, 409: AdminError, ...errors },
      },
    },
    async (request, reply) => {
      await requireTeam(db, request.params.teamId);
      const row = await createInbox(db, request.params.teamId, request.body, deps.mailDomain, clock.now());
      return reply.code(201).send(inboxView(row));
    },
  );

  admin.get(
    '/teams/:teamId/inboxes',
    {
      schema: {
        ...common,
        summary: "List a team's inboxes",
        params: TeamParams,
        response: { 200: Inbox.array(), ...errors },
      },
    },
    async (request) => {
      await requireTeam(db, request.params.teamId);
      return (await listInboxes(db, request.params.teamId)).map(inboxView);
    },
  );

  admin.delete(
    '/teams/:teamId/inboxes/:id',
    {
      schema: {
        ...common,
        summary: 'Delete an inbox: its address is refused from then on; its messages stay readable',
        params: InboxParams,
        response: { 200: DeletedInbox, ...errors },
      },
    },
    async (request) => {
      const { teamId, id } = request.params;
      await removeInbox(db, teamId, id, clock.now());
      return { id, deleted: true as const };
    },
  );
}
