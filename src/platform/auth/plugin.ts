// Authentication, access policy and the per-team per-second rate limit, in that order, for every
// route that declares a keyed `config.access`. Runs at onRequest, before the body is read. Routes
// under the API prefix are closed by default: one that declares no access stops start-up.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../errors.ts';
import {
  CounterUnavailableError,
  rateLimitHeaders,
  type RateLimitDecision,
  type RateLimiter,
} from '../rate-limit/index.ts';
import { isWellFormedKey, type Principal } from './api-keys.ts';
import { enforceAccess, type AccessLevel } from './policy.ts';
import type { PrincipalCache } from './principal-cache.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Which keys may call the route (platform/auth/policy.ts); 'public': no key. Required under the API prefix. */
    access?: AccessLevel;
  }
  interface FastifyRequest {
    principal?: Principal;
  }
}

interface AuthDeps {
  principals: PrincipalCache;
  rateLimiter: RateLimiter;
}

const unauthorized = (message: string) => new ApiError(401, 'UNAUTHORIZED', message);

/** The presented API key, or 401 for a missing header, another scheme or a malformed key. */
function presentedKey(request: FastifyRequest): string {
  const header = request.headers.authorization;
  if (header === undefined || header === '')
    throw unauthorized('Missing Authorization header; send `Authorization: Bearer <API key>`');
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!match) throw unauthorized('Authorization header must use the Bearer scheme: `Authorization: Bearer <API key>`');
  if (!isWellFormedKey(match[1]!)) throw unauthorized('API key is malformed');
  return match[1]!;
}

/** The principal of a route that declared `config.access`. */
export function principalOf(request: FastifyRequest): Principal {
  if (!request.principal)
    throw new Error(`Route ${request.routeOptions.url} used the principal without declaring access`);
  return request.principal;
}

export function registerAuth(app: FastifyInstance, deps: AuthDeps): void {
  /** Policy and rate limit for a looked-up key. Throws the 401/403/429; returns a promise only when
   * the counters live in Redis. */
  const admit = (request: FastifyRequest, reply: FastifyReply, principal: Principal | null): void | Promise<void> => {
    if (!principal) throw unauthorized('API key is not valid');
    enforceAccess(request.routeOptions.config.access!, principal);
    const apply = (decision: RateLimitDecision) => {
      reply.headers(rateLimitHeaders(decision));
      if (!decision.allowed) {
        throw new ApiError(
          429,
          'RATE_LIMITED',
          `Rate limit of ${decision.limit} requests per second exceeded; retry after ${decision.retryAfterSeconds} s`,
        );
      }
      request.principal = principal;
    };
    const decision = deps.rateLimiter.apiLimit(principal.teamId, principal.apiRateLimit);
    if (!(decision instanceof Promise)) return apply(decision);
    return decision.then(apply, (error: unknown) => {
      // Shared counters (Redis) unreachable: serve the request rather than fail every API call.
      // Reads whose contract demands 503 in this case check their own limits (billing).
      // The outage itself is logged once per change of the circuit's state (build-deps.ts), not per request.
      if (!(error instanceof CounterUnavailableError)) throw error;
      request.log.debug({ reason: error.message }, 'rate-limit counters unavailable; request not limited');
      request.principal = principal;
    });
  };

  // Callback style with a synchronous path for a warm key and memory counters: no promise and no
  // microtask hop on the hot path of every authenticated request.
  const guard = (request: FastifyRequest, reply: FastifyReply, done: HookDone) => {
    let pending: void | Promise<void>;
    try {
      const key = presentedKey(request);
      const warm = deps.principals.peek(key);
      pending = warm
        ? admit(request, reply, warm)
        : deps.principals.lookup(key).then((principal) => admit(request, reply, principal));
    } catch (error) {
      return done(error as Error);
    }
    if (pending instanceof Promise) pending.then(() => done(), done);
    else done();
  };

  // The guard runs first among each keyed route's own hooks, before the body is read.
  app.addHook('onRoute', (route) => {
    const access = route.config?.access;
    if (access === undefined || access === 'public') return;
    const existing =
      route.onRequest === undefined ? [] : Array.isArray(route.onRequest) ? route.onRequest : [route.onRequest];
    route.onRequest = [guard, ...existing];
  });
}

type HookDone = (error?: Error) => void;

/**
 * Closed by default: every route registered in `scope` (the API prefix) must declare `config.access`,
 * `'public'` included, or registering it throws and the app does not start. A forgotten declaration
 * would otherwise publish the route to anyone.
 */
export function requireDeclaredAccess(scope: FastifyInstance): void {
  scope.addHook('onRoute', (route) => {
    if (route.config?.access !== undefined) return;
    const methods = Array.isArray(route.method) ? route.method.join(',') : route.method;
    throw new Error(
      `Route ${methods} ${route.url} declares no access: set config.access to a level of platform/auth/policy.ts, or 'public'`,
    );
  });
}
