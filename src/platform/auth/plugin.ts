// Authentication, access policy and the per-team per-second rate limit, in that order, for every
// route that declares a keyed `config.access`. Runs at onRequest, before the body is read. Routes
// under the API prefix are closed by default: one that declares no access stops start-up.
// A request without an Authorization header may present a dashboard session's cookie instead
// (session-auth.ts); a request with both is judged by the key alone.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../errors.ts';
import {
  CounterUnavailableError,
  rateLimitHeaders,
  type RateLimitDecision,
  type RateLimiter,
} from '../rate-limit/index.ts';
import { isWellFormedKey, type Principal } from './api-keys.ts';
import { enforceAccess, isSessionOnly, type AccessLevel } from './policy.ts';
import type { PrincipalCache } from './principal-cache.ts';
import { checkSessionWrite, sessionCookieOf, teamHeaderOf, type SessionAuth } from './session-auth.ts';

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
  /** Dashboard sessions (src/sessions/); without it only keys are accepted. */
  sessions?: SessionAuth;
}

const unauthorized = (message: string) => new ApiError(401, 'UNAUTHORIZED', message);

/** The answer to a request past its team's per-second API limit (the routes' 429; SMTP submission's 421). */
export function apiRateLimited(decision: RateLimitDecision & { allowed: false }): ApiError {
  return new ApiError(
    429,
    'RATE_LIMITED',
    `Rate limit of ${decision.limit} requests per second exceeded; retry after ${decision.retryAfterSeconds} s`,
  );
}

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
      if (!decision.allowed) throw apiRateLimited(decision);
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

  /** A cookie request: the session's principal, the checks of a write made with a cookie, then admit. */
  const admitSession = async (request: FastifyRequest, reply: FastifyReply, token: string, auth: SessionAuth) => {
    const principal = await auth.principals.principalOf(token, teamHeaderOf(request));
    if (!principal)
      throw unauthorized('The session has ended (signed out, revoked or idle for 14 days); sign in again');
    checkSessionWrite(request, principal, auth);
    await admit(request, reply, principal);
  };

  /** The cookie's value when the request has no Authorization header and sessions are on; else null. */
  const sessionTokenOf = (request: FastifyRequest): string | null => {
    const header = request.headers.authorization;
    if (deps.sessions === undefined || (header !== undefined && header !== '')) return null;
    const token = sessionCookieOf(request);
    if (token === null && isSessionOnly(request.routeOptions.config.access!))
      throw unauthorized('Not signed in: this needs the herald_session cookie of a dashboard session');
    return token;
  };

  // Callback style with a synchronous path for a warm key and memory counters: no promise and no
  // microtask hop on the hot path of every authenticated request.
  const guard = (request: FastifyRequest, reply: FastifyReply, done: HookDone) => {
    let pending: void | Promise<void>;
    try {
      const sessionToken = sessionTokenOf(request);
      if (sessionToken !== null) {
        admitSession(request, reply, sessionToken, deps.sessions!).then(() => done(), done);
        return;
      }
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
