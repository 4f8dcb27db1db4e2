// The body of GET /v1/session (and of a sign-in, and of a plan change): who is signed in, their
// teams, the team requests act in, the CSRF token and what the dashboard shows of the instance.
import type { Db } from '../db/handle.ts';
import { csrfTokenOf } from '../platform/auth/session-auth.ts';
import type { Secrets } from '../platform/crypto.ts';
import { ApiError } from '../platform/errors.ts';
import { HERALD_VERSION } from '../platform/openapi.ts';
import { membershipsOf, type Membership } from './queries.ts';

/** What the session body says of the instance (config). */
export interface InstanceFacts {
  mailDomain: string;
  /** HERALD_MAIL_TRANSPORT's kind. */
  mailTransport: 'log' | 'smtp' | 'direct';
  publicUrl: string;
  apiPrefix: string;
}

export interface SessionViewDeps {
  secrets: Secrets;
  instance: InstanceFacts;
}

const teamView = (m: Membership) => ({ id: m.team_id, name: m.team_name, role: m.role, plan: m.plan });

/**
 * The session body for the address, acting in `teamId` (null: its first team). 401 when the address
 * is a member of no team any more: the session has nothing to show.
 */
export async function sessionBody(
  db: Db,
  deps: SessionViewDeps,
  session: { id: string; email: string },
  teamId: number | null,
) {
  const memberships = await membershipsOf(db, session.email);
  const chosen = memberships.find((m) => teamId === null || m.team_id === teamId) ?? memberships[0];
  if (!chosen) throw new ApiError(401, 'UNAUTHORIZED', 'This address is no longer a member of any team');
  return {
    member: { id: chosen.member_id, email: session.email },
    teams: memberships.map(teamView),
    team: teamView(chosen),
    csrfToken: csrfTokenOf(deps.secrets, session.id),
    instance: { ...deps.instance, version: HERALD_VERSION },
  };
}
