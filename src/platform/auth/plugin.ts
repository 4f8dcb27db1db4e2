// Authentication, access policy and the per-team per-second rate limit, in that order, for every
// route that declares `config.access`. Runs at onRequest, before the body is read.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../errors.ts';
import { CounterUnavailableError, rateLimitHeaders, type RateLimitDecision, type RateLimiter } from '../rate-limit/index.ts';
import type { Secrets } from '../crypto.ts';
import { hashApiKey, isWellFormedKey, type Principal } from './api-keys.ts';
import { enforceAccess, type AccessLevel } from './policy.ts';
import type { PrincipalCache } from './principal-cache.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Which keys may call the route (platform/auth/policy.ts). Unset: no API key needed. */
    access?: AccessLevel;
  }
  interface FastifyRequest {
    principal?: Principal;
  }
}

export interface AuthDeps {
  secrets: Secrets;
  principals: PrincipalCache;
  rateLimiter: RateLimiter;
}

const unauthorized = (message: string) => new ApiError(401, 'UNAUTHORIZED', message);

function bearerToken(request: FastifyRequest): string {
  const header = request.headers.authorization;
  if (header === undefined || header === '') throw unauthorized('Missing Authorization header; send `Authorization: Bearer <API key>`');
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!match) throw unauthorized('Authorization header must use the Bearer scheme: `Authorization: Bearer <API key>`');
  return match[1]!;
}

export async function authenticate(deps: AuthDeps, request: FastifyRequest): Promise<Principal> {
  const token = bearerToken(request);
  if (!isWellFormedKey(token)) throw unauthorized('API key is malformed');
  const principal = await deps.principals.lookup(hashApiKey(deps.secrets, token));
  if (!principal) throw unauthorized('API key is not valid');
  return principal;
}

/** The principal of a route that declared `config.access`. */
export function principalOf(request: FastifyRequest): Principal {
  if (!request.principal) throw new Error(`Route ${request.routeOptions.url} used the principal without declaring access`);
  return request.principal;
}

export function registerAuth(app: FastifyInstance, deps: AuthDeps): void {
  const guard = async (request: FastifyRequest, reply: FastifyReply) => {
    const level = request.routeOptions.config.access!;
    const principal = await authenticate(deps, request);
    enforceAccess(level, principal);
    let decision: RateLimitDecision;
    try {
      decision = await deps.rateLimiter.apiLimit(principal.teamId, principal.apiRateLimit);
    } catch (error) {
      // Shared counters (Redis) unreachable: serve the request rather than fail every API call.
      // Reads whose contract demands 503 in this case check their own limits (billing).
      if (!(error instanceof CounterUnavailableError)) throw error;
      request.log.warn({ err: error }, 'rate-limit counters unavailable; request not limited');
      request.principal = principal;
      return;
    }
    reply.headers(rateLimitHeaders(decision));
    if (!decision.allowed) {
      throw new ApiError(429, 'RATE_LIMITED', `Rate limit of ${decision.limit} requests per second exceeded; retry after ${decision.retryAfterSeconds} s`);
    }
    request.principal = principal;
  };
  // The guard runs first among each keyed route's own hooks, before the body is read.
  app.addHook('onRoute', (route) => {
    if (route.config?.access === undefined) return;
    const existing = route.onRequest === undefined ? [] : Array.isArray(route.onRequest) ? route.onRequest : [route.onRequest];
    route.onRequest = [guard, ...existing];
  });
}
