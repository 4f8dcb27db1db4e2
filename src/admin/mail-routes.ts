// Admin API for Herald's own mail domain: the DNS records of HERALD_MAIL_DOMAIN (`herald admin dns`)
// and one message of the log transport's outbox (`herald admin outbox show ID`).
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AdminDeps } from './admin-deps.ts';
import { builtinDnsRecords } from '../domains/index.ts';
import { getOutboxMessage, type OutboxRow } from '../emails/outbox-queries.ts';
import { notFound } from '../platform/errors.ts';
import { OutboxMessage } from './schemas.ts';
import { ADMIN_ERRORS, ADMIN_ROUTE } from './route-kit.ts';

const DnsRecord = z.object({
  type: z.enum(['TXT', 'MX']),
  name: z.string(),
  value: z.string(),
  priority: z.number().int().nullable(),
  purpose: z.string(),
});
const MailDomainDns = z.object({ mailDomain: z.string(), records: DnsRecord.array() });

export function registerMailAdminRoutes(
  app: FastifyInstance,
  deps: Pick<AdminDeps, 'db' | 'secrets' | 'mailDomain'>,
): void {
  const admin = app.withTypeProvider<ZodTypeProvider>();
  const common = ADMIN_ROUTE;
  const errors = ADMIN_ERRORS;

  admin.get(
    '/dns',
    {
      schema: {
        ...common,
        summary: "The DNS records of Herald's own mail domain (HERALD_MAIL_DOMAIN)",
        description:
          "Publish them in the zone of HERALD_MAIL_DOMAIN: the DKIM key (derived from HERALD_SECRET) signs the mail every team may send from that domain to its own members; every team domain's SPF includes this domain's.",
        response: { 200: MailDomainDns, ...errors },
      },
    },
    async () => ({
      mailDomain: deps.mailDomain,
      records: builtinDnsRecords(deps.secrets, deps.mailDomain),
    }),
  );

  admin.get(
    '/outbox/:id',
    {
      schema: {
        ...common,
        summary: 'One message the log transport stored',
        params: z.object({ id: z.string().regex(/^\d{1,18}$/, 'must be an outbox message id') }),
        response: { 200: OutboxMessage, ...errors },
      },
    },
    async (request) => {
      const row = await getOutboxMessage(deps.db, request.params.id);
      if (!row) throw notFound('outbox message');
      return outboxMessageView(row);
    },
  );
}

/** A stored log-transport message as the admin API shows it. */
export function outboxMessageView(row: OutboxRow) {
  return {
    id: String(row.id),
    teamId: row.team_id,
    emailId: row.email_id,
    envelope: { from: row.envelope_from, to: row.envelope_to },
    subject: row.subject,
    createdAt: row.created_at.toISOString(),
    // PGlite returns bytea as a Uint8Array, pg as a Buffer.
    raw: Buffer.from(row.raw).toString('utf8'),
  };
}
