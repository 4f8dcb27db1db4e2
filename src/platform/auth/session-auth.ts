// Dashboard sessions as auth sees them (issue 45). A browser signed in through the sessions area
// (src/sessions/) sends the herald_session cookie instead of an Authorization header; the plugin
// (plugin.ts) asks the area for the principal, the one a full access key made by the session's member
// in the chosen team would give, so the access table applies unchanged. What only a cookie needs is
// here: reading it, and the two checks a write made with it must pass, because a browser sends the
// cookie with requests other sites make it send (CSRF): the X-CSRF-Token header (an HMAC of the
// session id, which a page of another origin cannot read) and an Origin header of HERALD_PUBLIC_URL.
import type { FastifyRequest } from 'fastify';
import { safeEqual, type Secrets } from '../crypto.ts';
import { ApiError } from '../errors.ts';
import type { Principal } from './api-keys.ts';

export const SESSION_COOKIE = 'herald_session';
/** The team a cookie request acts in (a team id of the signed-in address); absent: its first team. */
export const TEAM_HEADER = 'x-herald-team';
const CSRF_HEADER = 'x-csrf-token';
const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** What the sessions area answers auth with; app.ts hands it to registerAuth (platform imports no area). */
export interface SessionPrincipals {
  /**
   * The principal of the live session whose cookie value this is, in the team `team` names (the
   * X-Herald-Team header) or else the address's first team; null when no live session has this value
   * or its address is a member of no team. Throws 404 for a team the address is not a member of.
   */
  principalOf(token: string, team: string | undefined): Promise<Principal | null>;
}

export interface SessionAuth {
  principals: SessionPrincipals;
  secrets: Secrets;
  /** HERALD_PUBLIC_URL: the dashboard's origin, the only one a cookie write may come from. */
  publicUrl: string;
}

/** The herald_session cookie's value, or null. */
export function sessionCookieOf(request: FastifyRequest): string | null {
  const header = request.headers.cookie;
  if (header === undefined || header === '') return null;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0 || part.slice(0, eq).trim() !== SESSION_COOKIE) continue;
    const value = part.slice(eq + 1).trim();
    return value === '' ? null : value;
  }
  return null;
}

/** The X-Herald-Team header as sent (one value), or undefined. */
export function teamHeaderOf(request: FastifyRequest): string | undefined {
  const value = request.headers[TEAM_HEADER];
  return typeof value === 'string' ? value : undefined;
}

/** The session's CSRF token: derived from its id with a key of its own, so nothing more is stored. */
export function csrfTokenOf(secrets: Secrets, sessionId: string): string {
  return secrets.hmac('session-csrf', sessionId).toString('base64url');
}

export function publicOriginOf(publicUrl: string): string {
  return new URL(publicUrl).origin;
}

/**
 * 403 naming Origin when the request comes from a page of another origin; a request without the
 * header passes only when `required` is false (a client that is not a browser sends none).
 */
export function checkOrigin(request: FastifyRequest, publicUrl: string, required: boolean): void {
  const origin = request.headers.origin;
  if (origin === undefined && !required) return;
  const expected = publicOriginOf(publicUrl);
  if (origin === expected) return;
  throw new ApiError(
    403,
    'FORBIDDEN',
    origin === undefined
      ? `Origin: a write made with the session cookie needs the header Origin: ${expected} (HERALD_PUBLIC_URL)`
      : `Origin: ${origin} is not this dashboard's origin (${expected}, HERALD_PUBLIC_URL)`,
  );
}

/** A write (POST, PUT, PATCH, DELETE) made with the cookie needs the session's CSRF token and our Origin. */
export function checkSessionWrite(request: FastifyRequest, principal: Principal, auth: SessionAuth): void {
  if (!WRITE_METHODS.has(request.method)) return;
  checkOrigin(request, auth.publicUrl, true);
  const sent = request.headers[CSRF_HEADER];
  if (typeof sent !== 'string' || !safeEqual(sent, csrfTokenOf(auth.secrets, principal.sessionId!))) {
    throw new ApiError(
      403,
      'FORBIDDEN',
      'X-CSRF-Token: a write made with the session cookie needs the header X-CSRF-Token set to the csrfToken of GET /v1/session',
    );
  }
}
