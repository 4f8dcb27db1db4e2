// The typed API client: openapi-fetch over the paths generated from openapi.json, and the one
// middleware every request passes: the team header, the CSRF token on writes, the API prefix this
// instance serves, and a 401 that sends the browser to sign-in.
import createClient, {
  createFinalURL,
  createQuerySerializer,
  defaultPathSerializer,
  type Middleware,
} from 'openapi-fetch';
import { takeInlineRead } from './inline-reads.ts';
import type { paths } from './schema';

/** openapi.json is generated with the default prefix; the server tells the page its own. */
const GENERATED_PREFIX = '/api';
export const apiPrefix =
  document.querySelector<HTMLMetaElement>('meta[name="herald-api-prefix"]')?.content ?? GENERATED_PREFIX;

/** What the middleware adds; set by the session (CSRF token) and the team switcher. */
export const requestContext: { teamId: string | null; csrfToken: string | null } = {
  teamId: localStorage.getItem('herald-team'),
  csrfToken: null,
};

let onUnauthorized: () => void = () => {};
/** The router registers where a 401 sends the user (sign-in, with `next`). */
export function setUnauthorizedHandler(handler: () => void): void {
  onUnauthorized = handler;
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Headers of a dashboard request, for the client below and the few plain fetches. */
export function dashboardHeaders(method: string, headers = new Headers()): Headers {
  if (requestContext.teamId) headers.set('X-Herald-Team', requestContext.teamId);
  if (!SAFE_METHODS.has(method.toUpperCase()) && requestContext.csrfToken) {
    headers.set('X-CSRF-Token', requestContext.csrfToken);
  }
  return headers;
}

/** `/api/v1/...` (as generated) to this instance's prefix. */
export function apiUrl(path: string): string {
  return path.startsWith(GENERATED_PREFIX) ? apiPrefix + path.slice(GENERATED_PREFIX.length) : path;
}

const dashboardMiddleware: Middleware = {
  onRequest({ request }) {
    const url = new URL(request.url);
    const rewritten = apiUrl(url.pathname);
    const next = rewritten === url.pathname ? request : new Request(url.origin + rewritten + url.search, request);
    dashboardHeaders(next.method, next.headers);
    return next;
  },
  onResponse({ response, request }) {
    // The session read itself answers 401 when signed out; the shell handles that one.
    if (response.status === 401 && !new URL(request.url).pathname.endsWith('/v1/session')) onUnauthorized();
    return undefined;
  },
};

export const api = createClient<paths>({ baseUrl: location.origin, credentials: 'same-origin' });
api.use(dashboardMiddleware);

/**
 * A GET whose request leaves now (or left already, from index.html: inline-reads.ts), in the same
 * shape as `api.GET`'s answer. The client's middleware calls fetch after an await, so a read started
 * while the entry is evaluated would leave only once all of it (React's DOM) has been; the boot
 * reads (boot-reads.ts) use this instead.
 */
export async function getAtOnce<T>(path: string, query: Record<string, unknown>) {
  const params = { query };
  const querySerializer = createQuerySerializer();
  const url = createFinalURL(apiUrl(path), {
    baseUrl: location.origin,
    params,
    querySerializer,
    pathSerializer: defaultPathSerializer,
  });
  const response = await (takeInlineRead(url) ??
    fetch(url, { headers: dashboardHeaders('GET'), credentials: 'same-origin' }));
  const body: unknown = await response.json().catch(() => undefined);
  if (response.status === 401) onUnauthorized();
  return response.ok ? { data: body as T, response } : { error: body, response };
}

/** An API error body ({error: {code, message}} or the contract's flat {error}), as thrown by `must`. */
export class ApiFailure extends Error {
  readonly status: number;
  readonly code: string;
  constructor(status: number, code: string, message: string) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

export function toFailure(status: number, body: unknown): ApiFailure {
  const error = (body as { error?: unknown } | undefined)?.error;
  if (typeof error === 'string') return new ApiFailure(status, status === 404 ? 'NOT_FOUND' : 'ERROR', error);
  if (error && typeof error === 'object') {
    const { code, message } = error as { code?: string; message?: string };
    return new ApiFailure(status, code ?? 'ERROR', message ?? `HTTP ${status}`);
  }
  return new ApiFailure(status, 'ERROR', `HTTP ${status}`);
}

/** The data of an openapi-fetch answer, or an ApiFailure thrown for TanStack Query to show. */
export async function must<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  const { data, error, response } = await call;
  if (!response.ok || data === undefined) throw toFailure(response.status, error);
  return data;
}
