// Signing in (issue 45): POST /v1/session/sign-in mails a link and a code to a member's address, and
// POST /v1/session exchanges either for a session cookie. Both are public (no key, no cookie, no
// CSRF token); a browser's Origin, when sent, must be the dashboard's, so a page of another site
// cannot sign a visitor in to an account of its choosing.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { checkOrigin, teamHeaderOf } from '../platform/auth/session-auth.ts';
import { badRequest } from '../platform/errors.ts';
import type { SessionRouteDeps } from './route-kit.ts';
import * as s from './schemas.ts';
import { parseTeamHeader, sessionCookie } from './sessions.ts';
import { sessionBody } from './session-view.ts';
import { limitAddress, limitClient } from './sign-in-limits.ts';
import { requestSignIn, signIn, type SignInCredential } from './sign-in.ts';

const ROUTE = { tags: ['session'], security: [] };
const ERRORS = { 400: s.ErrorBody, 403: s.ErrorBody, 429: s.ErrorBody };

/** The body's token, or its email and code; 400 naming what is missing. */
function credentialOf(body: { token?: string | undefined; email?: string | undefined; code?: string | undefined }) {
  const { token, email, code } = body;
  if (token !== undefined) {
    if (email !== undefined || code !== undefined) throw badRequest('token: give either token, or email and code');
    return { token } satisfies SignInCredential;
  }
  if (email === undefined && code === undefined) throw badRequest('token: required (or email and code)');
  if (email === undefined) throw badRequest('email: required with code');
  if (code === undefined) throw badRequest('code: required with email');
  return { email, code } satisfies SignInCredential;
}

const refusals = {
  token: 'token: this sign-in link has expired or was used',
  code: 'code: this code is wrong, has expired or was used',
} as const;

export function registerSignInRoutes(app: FastifyInstance, deps: SessionRouteDeps): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { db, clock, secrets, instance } = deps;
  const signInDeps = { db, secrets, publicUrl: instance.publicUrl };
  const limits = { rateLimiter: deps.rateLimiter, secrets, logger: deps.logger };

  api.post(
    '/v1/session/sign-in',
    {
      config: { access: 'public' },
      schema: {
        ...ROUTE,
        summary: 'Email a sign-in link and code to a member (dashboard)',
        description:
          'Answers 202 whatever the address, so that it tells nobody who is a member. When the address is a member of a ' +
          'team, an email goes to it with a link to {HERALD_PUBLIC_URL}/sign-in/{token} and a 6-digit code for another ' +
          'device, valid 15 minutes, once (either one ends both). At most 5 a quarter hour per address (past it: still 202, ' +
          'nothing sent) and 20 per client address (past it: 429).',
        body: s.SignInRequestBody,
        response: { 202: s.Accepted, ...ERRORS },
      },
    },
    async (request, reply) => {
      checkOrigin(request, instance.publicUrl, false);
      await limitClient(limits, 'sign-in', clientAddress(request));
      const { email } = request.body;
      if (await limitAddress(limits, email)) await requestSignIn(signInDeps, email, clock.now());
      return reply.code(202).send({});
    },
  );

  api.post(
    '/v1/session',
    {
      config: { access: 'public' },
      schema: {
        ...ROUTE,
        summary: 'Sign in with a link token or an email and code; sets the session cookie (dashboard)',
        description:
          'Either `{token}` (the link) or `{email, code}`. Sets the cookie herald_session (HttpOnly, SameSite=Lax, Path=/, ' +
          'Secure when HERALD_PUBLIC_URL is https) and answers the session. A wrong, expired or used link or code: 400 ' +
          'naming token or code; five wrong codes end every code of the address. X-Herald-Team picks the team shown when it ' +
          'is one of the address; otherwise the first. At most 20 a quarter hour per client address (429).',
        body: s.CreateSessionBody,
        response: { 200: s.Session, ...ERRORS },
      },
    },
    async (request, reply) => {
      checkOrigin(request, instance.publicUrl, false);
      const credential = credentialOf(request.body);
      await limitClient(limits, 'session', clientAddress(request));
      const now = clock.now();
      const outcome = await signIn(signInDeps, credential, request.headers['user-agent'], now);
      if ('refused' in outcome) throw badRequest(refusals[outcome.refused]);
      let teamId: number | null = null;
      try {
        teamId = parseTeamHeader(teamHeaderOf(request));
      } catch {
        // A sign-in that went through is not lost to a bad header: the first team is shown.
      }
      const body = await sessionBody(
        db,
        { secrets, instance },
        { id: outcome.session.id, email: outcome.email },
        teamId,
      );
      reply.header('set-cookie', sessionCookie(outcome.session.token, instance.publicUrl));
      reply.header('cache-control', 'no-store');
      return body;
    },
  );
}

/** The client's address as this process sees it (behind a proxy: the proxy's). */
function clientAddress(request: FastifyRequest): string {
  return request.ip;
}
