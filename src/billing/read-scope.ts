// What every billing read shares, as hooks of the billing routes' scope: the per-minute limits
// (read-limits.ts) once the key is admitted, and one audit log row per read after the answer
// (contract: "Every read is recorded in the key's audit log"), refusals included.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Principal } from '../platform/auth/api-keys.ts';
import type { PrincipalCache } from '../platform/auth/principal-cache.ts';
import type { Clock } from '../platform/clock.ts';
import type { RateLimiter } from '../platform/rate-limit/index.ts';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { Logger } from 'pino';
import { ApiError } from '../platform/errors.ts';
import { insertAuditEntry } from './audit-queries.ts';
import { admitBillingRead } from './read-limits.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Billing: the read also counts against the invoice limits. */
    invoiceRead?: boolean;
  }
  interface FastifyRequest {
    billingErrorCode?: string;
    billingReadAt?: Date;
  }
}

export interface ReadScopeDeps {
  db: Kysely<Database>;
  clock: Clock;
  logger: Logger;
  rateLimiter: RateLimiter;
  principals: PrincipalCache;
}

/** The caller of a refused read: the access check refused before setting request.principal. */
function callerOf(request: FastifyRequest, principals: PrincipalCache): Principal | undefined {
  if (request.principal) return request.principal;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '');
  return match ? principals.peek(match[1]!) : undefined;
}

export function useBillingReadHooks(scope: FastifyInstance, deps: ReadScopeDeps): void {
  scope.addHook('onRequest', (request, _reply, done) => {
    request.billingReadAt = deps.clock.now();
    done();
  });

  scope.addHook('preValidation', async (request, reply) => {
    const principal = request.principal;
    if (!principal) return;
    await admitBillingRead(deps.rateLimiter, reply, principal.teamId, request.routeOptions.config.invoiceRead === true);
  });

  scope.addHook('onError', async (request, _reply, error) => {
    // ApiError carries the contract's code; a schema validation error is a BAD_REQUEST.
    const code = error instanceof ApiError ? error.code : error.validation ? 'BAD_REQUEST' : undefined;
    request.billingErrorCode = code;
  });

  scope.addHook('onResponse', async (request, reply) => {
    const caller = callerOf(request, deps.principals);
    if (!caller) return; // no valid key: nothing to attribute the read to
    const url = request.url;
    const queryAt = url.indexOf('?');
    const prefix = scope.herald.apiPrefix;
    const path = queryAt === -1 ? url : url.slice(0, queryAt);
    try {
      await insertAuditEntry(deps.db, caller.teamId, {
        keyId: caller.keyId,
        keyKind: caller.kind,
        memberId: caller.memberId,
        method: request.method,
        path: path.startsWith(prefix) ? path.slice(prefix.length) : path,
        query: queryAt === -1 ? '' : url.slice(queryAt + 1),
        status: reply.statusCode,
        errorCode: reply.statusCode >= 400 ? (request.billingErrorCode ?? null) : null,
        at: request.billingReadAt ?? deps.clock.now(),
      });
    } catch (error) {
      request.log.error({ err: error }, 'billing audit log entry not written');
    }
  });
}
