// The browser session (src/sessions/): one GET /v1/session at boot gives the member, their teams,
// the CSRF token and the instance facts the shell shows. Sign-in by a link or a 6-digit code.
import { useQuery, type QueryClient } from '@tanstack/react-query';
import { apiPrefix, dashboardHeaders, requestContext, toFailure } from './client.ts';
import { takeInlineRead } from './inline-reads.ts';
import type { components } from './schema';

/** The session body (GET /v1/session), as openapi.json describes it. */
export type Session = components['schemas']['Session'];
export type SessionTeam = components['schemas']['SessionTeam'];

async function call(method: string, path: string, body?: unknown): Promise<Response> {
  const headers = dashboardHeaders(method);
  if (body !== undefined) headers.set('content-type', 'application/json');
  return fetch(`${apiPrefix}${path}`, {
    method,
    headers,
    credentials: 'same-origin',
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

async function failure(response: Response): Promise<Error> {
  return toFailure(response.status, await response.json().catch(() => undefined));
}

/** The session, or null when signed out (401). */
export async function readSession(): Promise<Session | null> {
  let response = await (takeInlineRead(`${apiPrefix}/v1/session`) ?? call('GET', '/v1/session'));
  if (response.status === 404 && requestContext.teamId !== null) {
    // The remembered team is not one of this member's (another user signed in here): forget it.
    requestContext.teamId = null;
    localStorage.removeItem('herald-team');
    response = await call('GET', '/v1/session');
  }
  if (response.status === 401) return null;
  if (!response.ok) throw await failure(response);
  const session = (await response.json()) as Session;
  requestContext.csrfToken = session.csrfToken;
  // The team the server answered for is the one every request names from now on.
  requestContext.teamId = String(session.team.id);
  localStorage.setItem('herald-team', requestContext.teamId);
  return session;
}

export const sessionKey = ['session'] as const;

/**
 * The boot read, started when this module is evaluated (boot-reads.ts) rather than when the shell
 * mounts, or index.html's (inline-reads.ts); taken once, by the first session query. Not on the
 * sign-in pages.
 */
let bootRead: Promise<Session | null> | null = location.pathname.startsWith('/sign-in') ? null : readSession();
/** The boot read's answer once it is here, for seedBootSession. */
let bootAnswer: { session: Session | null } | null = null;

/** Settles when the boot read has (main.tsx renders after it: seedBootSession). */
export const bootReadSettled: Promise<unknown> = bootRead
  ? bootRead.then(
      (session) => (bootAnswer = { session }),
      () => undefined,
    )
  : Promise.resolve();

function takeBootRead(): Promise<Session | null> {
  const started = bootRead;
  bootRead = null;
  return started ?? readSession();
}

/**
 * Puts the boot read's answer in the cache before the first render (main.tsx), which then has the
 * session instead of rendering its loading state first; a later read goes to the network. Set as
 * data, not as the query's initialData: a reset after sign-in must read again, not restore it.
 */
export function seedBootSession(queryClient: QueryClient): void {
  if (!bootAnswer) return;
  bootRead = null;
  queryClient.setQueryData(sessionKey, bootAnswer.session);
  bootAnswer = null;
}

export function useSession() {
  return useQuery({ queryKey: sessionKey, queryFn: takeBootRead, staleTime: 5 * 60_000, retry: false });
}

/** Asks for a sign-in link and code; the answer is the same for any address. */
export async function requestSignIn(email: string): Promise<void> {
  const response = await call('POST', '/v1/session/sign-in', { email });
  if (!response.ok) throw await failure(response);
}

export async function signIn(body: { token: string } | { email: string; code: string }): Promise<void> {
  const response = await call('POST', '/v1/session', body);
  if (!response.ok) throw await failure(response);
}

export async function signOut(): Promise<void> {
  const response = await call('DELETE', '/v1/session');
  if (!response.ok && response.status !== 401) throw await failure(response);
  requestContext.csrfToken = null;
}

/** Where to go after signing in: a same-site path only (never an open redirect). */
export function safeNext(next: string | null | undefined): string {
  if (!next || !next.startsWith('/') || next.startsWith('//') || next.startsWith('/sign-in')) return '/';
  return next;
}

/** The session inside the shell, which renders pages only once it has one. */
export function useSignedIn(): Session {
  const { data } = useSession();
  if (!data) throw new Error('useSignedIn outside the signed-in shell');
  return data;
}
