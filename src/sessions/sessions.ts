// Dashboard sessions (issue 45): a row per signed-in browser, its token stored only as a keyed hash,
// ended by signing out, by a revocation, or by 14 days without a request. A session belongs to an
// email address; the principal of a request is that address's member row in the chosen team, judged
// as a full access key made by that member (platform/auth/session-auth.ts).
import type { Kysely } from 'kysely';
import type { Db } from '../db/handle.ts';
import type { Database } from '../db/schema.ts';
import type { Principal } from '../platform/auth/api-keys.ts';
import { SESSION_COOKIE, type SessionPrincipals } from '../platform/auth/session-auth.ts';
import type { Clock } from '../platform/clock.ts';
import { randomToken, safeEqual, type Secrets } from '../platform/crypto.ts';
import { ApiError } from '../platform/errors.ts';
import { newId } from '../platform/ids.ts';
import { findSessionWithMember, insertSession, LAST_SEEN_RESOLUTION_MS, markSessionSeen } from './queries.ts';

/** A session unused this long is over. */
export const SESSION_IDLE_MS = 14 * 24 * 60 * 60_000;
/** What is kept of a browser's User-Agent header. */
export const USER_AGENT_MAX = 200;

const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;
const TEAM_ID_PATTERN = /^[1-9]\d{0,9}$/;

export interface StartedSession {
  id: string;
  /** The cookie's value: shown only to the browser that signed in. */
  token: string;
}

const tokenHash = (secrets: Secrets, token: string) => secrets.hmac('session', token);

export async function startSession(
  db: Db,
  secrets: Secrets,
  email: string,
  userAgent: string | undefined,
  now: Date,
): Promise<StartedSession> {
  const id = newId('ses_', now);
  const token = randomToken(32);
  const agent = userAgent === undefined || userAgent === '' ? null : userAgent.slice(0, USER_AGENT_MAX);
  await insertSession(db, { id, email, tokenHash: tokenHash(secrets, token), userAgent: agent, at: now });
  return { id, token };
}

/** When a session last seen at `lastSeenAt` ends. */
export const idleEnd = (lastSeenAt: Date) => new Date(lastSeenAt.getTime() + SESSION_IDLE_MS);

/** The team id the X-Herald-Team header names; 400 naming the header when it is no team id. */
export function parseTeamHeader(team: string | undefined): number | null {
  if (team === undefined) return null;
  if (!TEAM_ID_PATTERN.test(team) || Number(team) > 2_147_483_647)
    throw new ApiError(400, 'BAD_REQUEST', 'X-Herald-Team: must be the id of one of your teams');
  return Number(team);
}

interface SessionPrincipalDeps {
  db: Kysely<Database>;
  clock: Clock;
  secrets: Secrets;
}

/** What auth asks for a cookie (platform/auth/session-auth.ts): one statement, and at most one write a minute. */
export function sessionPrincipals(deps: SessionPrincipalDeps): SessionPrincipals {
  return {
    async principalOf(token, team) {
      const teamId = parseTeamHeader(team);
      if (!TOKEN_PATTERN.test(token)) return null;
      const hash = tokenHash(deps.secrets, token);
      const row = await findSessionWithMember(deps.db, hash, teamId);
      const now = deps.clock.now();
      if (!row || !safeEqual(row.token_hash, hash) || idleEnd(row.last_seen_at) <= now) return null;
      if (row.member_id === null) {
        // Contract: another team answers as a missing one.
        if (teamId !== null) throw new ApiError(404, 'NOT_FOUND', `X-Herald-Team: team ${teamId} not found`);
        return null;
      }
      if (now.getTime() - row.last_seen_at.getTime() >= LAST_SEEN_RESOLUTION_MS) {
        try {
          await markSessionSeen(deps.db, row.id, now);
        } catch {
          // A hint for idle expiry, written again a minute later: a failed write must not fail the request.
        }
      }
      const principal: Principal = {
        keyId: `session:${row.id}`,
        keyHash: Buffer.alloc(0),
        teamId: row.team_id!,
        kind: 'full',
        domainId: null,
        memberId: row.member_id,
        makerRole: row.role,
        apiRateLimit: row.api_rate_limit!,
        sessionId: row.id,
      };
      return principal;
    },
  };
}

function cookieAttributes(publicUrl: string): string {
  const secure = new URL(publicUrl).protocol === 'https:' ? '; Secure' : '';
  return `Path=/; HttpOnly; SameSite=Lax${secure}`;
}

/**
 * The Set-Cookie value of a session. It lives as long as the session could (14 days) and is set
 * again by every GET /v1/session, so a browser in use keeps it while the server decides when it ends.
 */
export function sessionCookie(token: string, publicUrl: string): string {
  return `${SESSION_COOKIE}=${token}; Max-Age=${SESSION_IDLE_MS / 1000}; ${cookieAttributes(publicUrl)}`;
}

export function clearedSessionCookie(publicUrl: string): string {
  return `${SESSION_COOKIE}=; Max-Age=0; ${cookieAttributes(publicUrl)}`;
}
