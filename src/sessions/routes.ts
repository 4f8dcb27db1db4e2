// The dashboard's session endpoints (issue 45, tag `session`): signing in (sign-in-routes.ts), the
// session itself, its list and revocations, and the plan change (plan-route.ts). The session ones
// take the herald_session cookie only (access `session`, `sessionAdmin`): an API key has no session.
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { principalOf } from '../platform/auth/plugin.ts';
import { sessionCookieOf } from '../platform/auth/session-auth.ts';
import { notFound } from '../platform/errors.ts';
import { registerPlanRoute } from './plan-route.ts';
import { deleteSession, listLiveSessions } from './queries.ts';
import { currentSession, SESSION_ERRORS, SESSION_ROUTE, type SessionRouteDeps } from './route-kit.ts';
import * as s from './schemas.ts';
import { clearedSessionCookie, SESSION_IDLE_MS, sessionCookie } from './sessions.ts';
import { sessionBody } from './session-view.ts';
import { registerSignInRoutes } from './sign-in-routes.ts';

export type { SessionRouteDeps };

export function registerSessionRoutes(app: FastifyInstance, deps: SessionRouteDeps): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { db, clock, secrets, instance } = deps;
  registerSignInRoutes(app, deps);
  registerPlanRoute(app, deps);

  api.get(
    '/v1/session',
    {
      config: { access: 'session' },
      schema: {
        ...SESSION_ROUTE,
        summary: 'The signed-in member, their teams, the chosen team and the CSRF token (dashboard)',
        description:
          "X-Herald-Team chooses the team among the address's (another: 404), else the first by id. The cookie is set " +
          'again, so a browser in use keeps it; the session ends after 14 days without a request.',
        response: { 200: s.Session, ...SESSION_ERRORS },
      },
    },
    async (request, reply) => {
      const session = await currentSession(db, request);
      const body = await sessionBody(db, { secrets, instance }, session, principalOf(request).teamId);
      reply.header('set-cookie', sessionCookie(sessionCookieOf(request)!, instance.publicUrl));
      reply.header('cache-control', 'no-store');
      return body;
    },
  );

  api.delete(
    '/v1/session',
    {
      config: { access: 'session' },
      schema: {
        ...SESSION_ROUTE,
        summary: 'Sign out: the session ends and its cookie is cleared (dashboard)',
        response: { 200: s.SignedOut, ...SESSION_ERRORS },
      },
    },
    async (request, reply) => {
      const session = await currentSession(db, request);
      await deleteSession(db, session.email, session.id);
      reply.header('set-cookie', clearedSessionCookie(instance.publicUrl));
      return {};
    },
  );

  api.get(
    '/v1/session/all',
    {
      config: { access: 'session' },
      schema: {
        ...SESSION_ROUTE,
        summary: "The signed-in address's live sessions, newest first (dashboard)",
        response: { 200: s.SessionList, ...SESSION_ERRORS },
      },
    },
    async (request) => {
      const session = await currentSession(db, request);
      const liveSince = new Date(clock.now().getTime() - SESSION_IDLE_MS);
      const rows = await listLiveSessions(db, session.email, liveSince);
      return {
        data: rows.map((row) => ({
          id: row.id,
          createdAt: row.created_at.toISOString(),
          lastSeenAt: row.last_seen_at.toISOString(),
          userAgent: row.user_agent,
          current: row.id === session.id,
        })),
      };
    },
  );

  api.delete(
    '/v1/session/all/:id',
    {
      config: { access: 'session' },
      schema: {
        ...SESSION_ROUTE,
        summary: "End one of the signed-in address's sessions (dashboard)",
        description:
          "Another address's session answers 404. Ending the current one clears its cookie, as signing out does.",
        params: s.SessionParams,
        response: { 200: s.RevokedSession, ...SESSION_ERRORS },
      },
    },
    async (request, reply) => {
      const session = await currentSession(db, request);
      const { id } = request.params;
      if (!(await deleteSession(db, session.email, id))) throw notFound('Session');
      if (id === session.id) reply.header('set-cookie', clearedSessionCookie(instance.publicUrl));
      return { id, deleted: true as const };
    },
  );
}
