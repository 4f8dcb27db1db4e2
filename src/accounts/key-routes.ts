// The team's own API keys (Herald extension, issue 46): list, create (the key shown once) and revoke,
// so that a team rotates its keys without the operator. Reads: `teamAdminRead` (a full access or
// read only key made by a team admin); changes: `teamAdminManage` (a full access key made by a team
// admin), neither limited to a domain (platform/auth/policy.ts). Each change is one transaction with
// its audit entry and the email to the owners and admins (key-changes.ts).
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { domainExists } from '../domains/index.ts';
import { principalOf } from '../platform/auth/plugin.ts';
import type { PrincipalCache } from '../platform/auth/principal-cache.ts';
import type { Clock } from '../platform/clock.ts';
import type { Secrets } from '../platform/crypto.ts';
import { ApiError, notFound } from '../platform/errors.ts';
import { createApiKey, keyHint } from './api-keys.ts';
import { recordKeyChange, type KeyChangeWriters } from './key-changes.ts';
import * as s from './key-schemas.ts';
import { listApiKeys, revokeApiKey } from './queries.ts';

export interface ApiKeyRouteDeps {
  db: Kysely<Database>;
  clock: Clock;
  secrets: Secrets;
  /** This process drops a revoked key at once; the others at the commit's NOTIFY. */
  principals: PrincipalCache;
  writers: KeyChangeWriters;
}

const ROUTE = { tags: ['platform'], security: [{ apiKey: [] }] };
const ERRORS = { 400: s.ErrorBody, 401: s.ErrorBody, 403: s.ErrorBody, 404: s.ErrorBody };

export function registerApiKeyRoutes(app: FastifyInstance, deps: ApiKeyRouteDeps): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { db, clock, secrets, writers } = deps;

  api.get(
    '/v1/api-keys',
    {
      config: { access: 'teamAdminRead' },
      schema: {
        ...ROUTE,
        summary: "List the team's API keys, newest first (Herald extension)",
        description:
          'Each key with its kind, name, domain, maker, creation and last use, and a hint of its last four characters; never the key itself.',
        response: { 200: s.ApiKeyList, ...ERRORS },
      },
    },
    async (request) => {
      const rows = await listApiKeys(db, principalOf(request).teamId);
      return {
        data: rows.map((row) => ({
          id: row.id,
          kind: row.kind,
          name: row.name,
          domainId: row.domain_id,
          createdBy: row.member_id,
          hint: row.key_hint,
          createdAt: row.created_at.toISOString(),
          lastUsedAt: row.last_used_at?.toISOString() ?? null,
        })),
      };
    },
  );

  api.post(
    '/v1/api-keys',
    {
      config: { access: 'teamAdminManage' },
      schema: {
        ...ROUTE,
        summary: 'Create an API key; the key is shown only in this answer (Herald extension)',
        description:
          "The calling key's maker is recorded as the new key's maker (createdBy). The team's owner and admins get an email, " +
          'and the audit log an entry. Not idempotent by design: Herald never stores a key, so it cannot replay one. ' +
          'domainId must be a domain of the team (404 otherwise).',
        body: s.CreateApiKeyBody,
        response: { 201: s.CreatedApiKey, ...ERRORS },
      },
    },
    async (request, reply) => {
      const principal = principalOf(request);
      const { teamId } = principal;
      const { kind, name, domainId } = request.body;
      const now = clock.now();
      const created = await db.transaction().execute(async (tx) => {
        if (domainId !== undefined && !(await domainExists(tx, teamId, domainId)))
          throw new ApiError(404, 'NOT_FOUND', `domainId: no domain ${domainId} in this team`);
        const made = await createApiKey(tx, secrets, teamId, {
          kind,
          name: name ?? null,
          memberId: principal.memberId,
          domainId: domainId ?? null,
          createdAt: now,
        });
        const key = { id: made.id, kind, name: name ?? null, hint: keyHint(made.key), domainId: domainId ?? null };
        await recordKeyChange(tx, writers, principal, { kind: 'created', key, path: '/v1/api-keys', status: 201 }, now);
        return { ...key, key: made.key };
      });
      // The answer holds a secret: no cache along the way may keep it.
      reply.header('cache-control', 'no-store');
      return reply.code(201).send({
        id: created.id,
        kind: created.kind,
        name: created.name,
        domainId: created.domainId,
        createdBy: principal.memberId,
        hint: created.hint,
        createdAt: now.toISOString(),
        lastUsedAt: null,
        key: created.key,
      });
    },
  );

  api.delete(
    '/v1/api-keys/:keyId',
    {
      config: { access: 'teamAdminManage' },
      schema: {
        ...ROUTE,
        summary: 'Revoke an API key; it stops working at once (Herald extension)',
        description:
          'Any key of the team but the calling one: a key cannot revoke itself (400), so a script cannot lock itself out ' +
          "half way through a rotation; revoke it with another key. The team's owner and admins get an email, and the audit log an entry.",
        params: s.ApiKeyParams,
        response: { 200: s.RevokedApiKey, ...ERRORS },
      },
    },
    async (request) => {
      const principal = principalOf(request);
      const { teamId } = principal;
      const { keyId } = request.params;
      if (keyId === principal.keyId)
        throw new ApiError(
          400,
          'BAD_REQUEST',
          'keyId: a key cannot revoke itself; revoke it with another key of the team',
        );
      const now = clock.now();
      await db.transaction().execute(async (tx) => {
        const revoked = await revokeApiKey(tx, teamId, keyId);
        if (!revoked) throw notFound('API key');
        const key = {
          id: revoked.id,
          kind: revoked.kind,
          name: revoked.name,
          hint: revoked.key_hint,
          domainId: revoked.domain_id,
        };
        const path = `/v1/api-keys/${encodeURIComponent(keyId)}`;
        await recordKeyChange(tx, writers, principal, { kind: 'revoked', key, path, status: 200 }, now);
      });
      deps.principals.invalidateTeam(teamId);
      return { id: keyId, deleted: true as const };
    },
  );
}
