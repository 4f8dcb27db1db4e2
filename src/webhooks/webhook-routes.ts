// Webhooks (contract: "Webhooks (FULL)"): list, create, read, update and delete (status, test and
// rotate-secret: webhook-action-routes.ts). Changes need a full access key made by a team admin
// (policy `webhookManage`).
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Kysely } from 'kysely';
import type { DnsResolver } from '../adapters/dns.ts';
import type { Database } from '../db/schema.ts';
import type { Clock } from '../platform/clock.ts';
import type { Secrets } from '../platform/crypto.ts';
import type { RateLimiter } from '../platform/rate-limit/index.ts';
import { unknownDomainIds } from '../domains/index.ts';
import { principalOf } from '../platform/auth/plugin.ts';
import { ApiError, notFound } from '../platform/errors.ts';
import { newId } from '../platform/ids.ts';
import { enforcePerMinute, PER_MINUTE } from './per-minute.ts';
import { limitReached, webhookLimit } from '../platform/plans.ts';
import { noticeWebhookChange } from './notices.ts';
import * as q from './queries.ts';
import * as s from './schemas.ts';
import { newSigningSecret, secretHint } from './signing.ts';
import { checkWebhookUrl } from './url-safety.ts';
import { webhookView } from './view.ts';

/** What the webhook and call routes use, built in app.ts. */
export interface WebhookRouteDeps {
  db: Kysely<Database>;
  clock: Clock;
  secrets: Secrets;
  dns: DnsResolver;
  rateLimiter: RateLimiter;
  /** HERALD_WEBHOOK_ALLOW_CIDRS: private ranges a webhook URL may still point at. */
  webhookAllowCidrs: readonly string[];
}

const DAY = 24 * 60 * 60 * 1000;

export function registerWebhookManagement(app: FastifyInstance, deps: WebhookRouteDeps): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { db, clock, secrets } = deps;
  const common = s.WEBHOOK_ROUTE;
  const errors = s.WEBHOOK_ERRORS;
  const manage = { access: 'webhookManage' as const };

  async function safeUrl(raw: string): Promise<string> {
    const checked = await checkWebhookUrl(raw, { dns: deps.dns, allowCidrs: deps.webhookAllowCidrs });
    if (!checked.ok) throw new ApiError(400, 'BAD_REQUEST', `url: ${checked.reason}`);
    return checked.url.href;
  }

  async function knownDomains(teamId: number, ids: number[] | undefined): Promise<number[]> {
    const unique = [...new Set(ids ?? [])];
    const unknown = await unknownDomainIds(db, teamId, unique);
    if (unknown.length > 0)
      throw new ApiError(404, 'NOT_FOUND', `domainIds: no domain ${unknown.join(', ')} in this team`);
    return unique;
  }

  api.get(
    '/v1/webhooks',
    {
      config: { access: 'webhookList' },
      schema: {
        ...common,
        summary: "List the team's webhooks, newest first, each with its last 24 hours of calls",
        response: { 200: s.WebhookList, ...errors },
      },
    },
    async (request) => {
      const { teamId } = principalOf(request);
      const rows = await q.listWebhooks(db, teamId, new Date(clock.now().getTime() - DAY));
      return { data: rows.map((row) => webhookView(row, { last24h: row })) };
    },
  );

  api.post(
    '/v1/webhooks',
    {
      config: manage,
      schema: {
        ...common,
        summary: 'Create a webhook',
        description:
          'The URL must be https with a public hostname (checked again before every delivery); a deployment that sets HERALD_WEBHOOK_ALLOW_CIDRS (development) also accepts http://, localhost and IP addresses for hosts wholly inside those ranges. ' +
          `At most ${PER_MINUTE.creations} creations a minute; ` +
          `the plan allows ${webhookLimit('free')} webhooks on free and ${webhookLimit('pro')} on pro (403 past it). The response carries the signing secret, shown only here.`,
        body: s.CreateWebhookBody,
        response: { 201: s.Webhook, ...errors },
      },
    },
    async (request, reply) => {
      const principal = principalOf(request);
      const { teamId } = principal;
      await enforcePerMinute(deps.rateLimiter, reply, teamId, 'webhook-creations', PER_MINUTE.creations);
      const url = await safeUrl(request.body.url);
      const domainIds = await knownDomains(teamId, request.body.domainIds);
      const secret = newSigningSecret();
      const now = clock.now();
      const row = await db.transaction().execute(async (tx) => {
        const team = await q.lockTeamAndCountWebhooks(tx, teamId);
        if (!team) throw notFound('Team');
        const limit = webhookLimit(team.plan);
        if (limitReached(team.count, limit))
          throw new ApiError(403, 'FORBIDDEN', `The team's plan allows ${limit} webhooks; delete one first`);
        const created = await q.insertWebhook(tx, {
          id: newId('wh_', now),
          team_id: teamId,
          url,
          description: request.body.description ?? null,
          status: 'ACTIVE',
          event_types: [...new Set(request.body.eventTypes)],
          domain_ids: domainIds,
          api_version: null,
          secret_sealed: secrets.encrypt(secret),
          secret_hint: secretHint(secret),
          consecutive_failures: 0,
          failing_since: null,
          last_failure_at: null,
          last_success_at: null,
          created_at: now,
          updated_at: now,
        });
        await noticeWebhookChange(tx, teamId, created.id, principal.keyId, { kind: 'created', url }, now);
        return created;
      });
      return reply.code(201).send(webhookView(row, { secret }));
    },
  );

  api.get(
    '/v1/webhooks/:webhookId',
    {
      config: { access: 'webhookRead' },
      schema: {
        ...common,
        summary: 'Get a webhook (secret masked)',
        params: s.WebhookParams,
        response: { 200: s.Webhook, ...errors },
      },
    },
    async (request) => {
      const row = await q.getWebhook(db, principalOf(request).teamId, request.params.webhookId);
      if (!row) throw notFound('Webhook');
      return webhookView(row);
    },
  );

  api.patch(
    '/v1/webhooks/:webhookId',
    {
      config: manage,
      schema: {
        ...common,
        summary: 'Update a webhook; send only the changes',
        description:
          'description null clears it. The signing secret is unchanged. A new URL is checked like at creation and emails the owner and admins.',
        params: s.WebhookParams,
        body: s.UpdateWebhookBody,
        response: { 200: s.Webhook, ...errors },
      },
    },
    async (request) => {
      const principal = principalOf(request);
      const { teamId } = principal;
      const { body } = request;
      const changes: q.WebhookChanges = {};
      if (body.url !== undefined) changes.url = await safeUrl(body.url);
      if (body.domainIds !== undefined) changes.domain_ids = await knownDomains(teamId, body.domainIds);
      if (body.eventTypes !== undefined) changes.event_types = [...new Set(body.eventTypes)];
      if (body.description !== undefined) changes.description = body.description;
      const now = clock.now();
      const row = await db.transaction().execute(async (tx) => {
        const current = await q.lockWebhook(tx, teamId, request.params.webhookId);
        if (!current) throw notFound('Webhook');
        if (Object.keys(changes).length === 0) return current;
        const updated = await q.updateWebhook(tx, teamId, current.id, changes, now);
        if (changes.url !== undefined && changes.url !== current.url) {
          await noticeWebhookChange(
            tx,
            teamId,
            current.id,
            principal.keyId,
            { kind: 'repointed', from: current.url, to: changes.url },
            now,
          );
        }
        return updated;
      });
      return webhookView(row);
    },
  );

  api.delete(
    '/v1/webhooks/:webhookId',
    {
      config: manage,
      schema: {
        ...common,
        summary: 'Delete a webhook and its call log, permanently',
        params: s.WebhookParams,
        response: { 200: s.DeletedWebhook, ...errors },
      },
    },
    async (request) => {
      const principal = principalOf(request);
      const { teamId } = principal;
      const now = clock.now();
      return db.transaction().execute(async (tx) => {
        const current = await q.lockWebhook(tx, teamId, request.params.webhookId);
        if (!current) throw notFound('Webhook');
        const deleted = await q.deleteWebhook(tx, teamId, current.id);
        await noticeWebhookChange(tx, teamId, current.id, principal.keyId, { kind: 'deleted', url: current.url }, now);
        return { id: current.id, deleted };
      });
    },
  );
}
