// The team's own members (Herald extension, issue 45): list, invite, change a role, remove, so that a
// team manages its people without the operator. The access levels of /v1/api-keys: reads
// `teamAdminRead`, changes `teamAdminManage` (platform/auth/policy.ts). Each change is one
// transaction over the team's locked row (member-queries.ts) with its audit entry; an invite's
// sign-in mail is queued in that same transaction (member-changes.ts).
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Kysely, Transaction } from 'kysely';
import type { Database, Member } from '../db/schema.ts';
import { isUniqueViolation } from '../db/errors.ts';
import { principalOf } from '../platform/auth/plugin.ts';
import type { PrincipalCache } from '../platform/auth/principal-cache.ts';
import type { Clock } from '../platform/clock.ts';
import { ApiError, notFound } from '../platform/errors.ts';
import { memberLimit } from '../platform/plans.ts';
import type { RateLimiter } from '../platform/rate-limit/index.ts';
import {
  auditMemberChange,
  INVITES_PER_HOUR,
  limitInvites,
  mailInvite,
  type MemberChangeWriters,
} from './member-changes.ts';
import {
  changeMemberRole,
  lockTeamMembers,
  memberByEmail,
  removeMember,
  type LockedTeamMembers,
} from './member-queries.ts';
import { checkInvite, checkRemoval, checkRoleChange } from './member-rules.ts';
import * as s from './member-schemas.ts';
import { addMember, getMember, listMembers } from './queries.ts';

export interface MemberRouteDeps {
  db: Kysely<Database>;
  clock: Clock;
  rateLimiter: RateLimiter;
  /** This process forgets the team's cached keys at once (their maker's role); the others at NOTIFY. */
  principals: PrincipalCache;
  writers: MemberChangeWriters;
}

const ROUTE = { tags: ['platform'], security: [{ apiKey: [] }] };
const ERRORS = { 400: s.ErrorBody, 401: s.ErrorBody, 403: s.ErrorBody, 404: s.ErrorBody };

const memberView = (m: Member) => ({
  id: m.id,
  email: m.email,
  name: m.name,
  role: m.role,
  createdAt: m.created_at.toISOString(),
});

type LockedChange<T> = (tx: Transaction<Database>, team: LockedTeamMembers) => Promise<T>;

const memberPath = (memberId: number) => `/v1/team/members/${memberId}`;

export function registerMemberRoutes(app: FastifyInstance, deps: MemberRouteDeps): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { db, clock, writers } = deps;

  /** Runs a change in one transaction over the team's locked row and counts; 404 when the team is gone. */
  const withLockedTeam = <T>(teamId: number, change: LockedChange<T>) =>
    db.transaction().execute(async (tx) => {
      const team = await lockTeamMembers(tx, teamId);
      if (!team) throw notFound('Team');
      return change(tx, team);
    });

  api.get(
    '/v1/team/members',
    {
      config: { access: 'teamAdminRead' },
      schema: {
        ...ROUTE,
        summary: "List the team's members, in the order they were added (Herald extension)",
        description: 'Each member with their address, name, role and when they were added.',
        response: { 200: s.TeamMemberList, ...ERRORS },
      },
    },
    async (request) => ({ data: (await listMembers(db, principalOf(request).teamId)).map(memberView) }),
  );

  api.post(
    '/v1/team/members',
    {
      config: { access: 'teamAdminManage' },
      schema: {
        ...ROUTE,
        summary: 'Add a member to the team and mail them a sign-in link (Herald extension)',
        description:
          'The address gets the dashboard sign-in email (a one-time link and code, 15 minutes; afterwards they sign in ' +
          'with the same address on the sign-in page). Only an owner may add an owner (403). ' +
          `The plan allows ${memberLimit('free') ?? 'any number of'} members on free and ` +
          `${memberLimit('pro') ?? 'any number'} on pro (403 past it; the usage read's resources.teamMembers). ` +
          `An address already a member is 409. At most ${INVITES_PER_HOUR} invites an hour per team (429). ` +
          'The audit log gets an entry (member.invited).',
        body: s.InviteMemberBody,
        response: { 201: s.TeamMember, 409: s.ErrorBody, 429: s.ErrorBody, ...ERRORS },
      },
    },
    async (request, reply) => {
      const principal = principalOf(request);
      const { teamId } = principal;
      const { email, name, role } = request.body;
      await limitInvites(deps.rateLimiter, teamId);
      const now = clock.now();
      const alreadyMember = () => new ApiError(409, 'CONFLICT', `email: ${email} is already a member of this team`);
      let added: Member;
      try {
        added = await withLockedTeam(teamId, async (tx, team) => {
          if (await memberByEmail(tx, teamId, email)) throw alreadyMember();
          checkInvite(principal, team, role);
          const member = await addMember(tx, teamId, { email, name: name ?? null, role }, now);
          const change = { action: 'member.invited' as const, member, path: '/v1/team/members', status: 201 };
          await auditMemberChange(tx, writers, principal, change, now);
          await mailInvite(tx, writers, principal, { member, teamName: team.name }, now);
          return member;
        });
      } catch (error) {
        // Another request added the address between the check and the insert.
        if (isUniqueViolation(error, 'members_team_email')) throw alreadyMember();
        throw error;
      }
      return reply.code(201).send(memberView(added));
    },
  );

  api.patch(
    '/v1/team/members/:memberId',
    {
      config: { access: 'teamAdminManage' },
      schema: {
        ...ROUTE,
        summary: "Change a member's role (Herald extension)",
        description:
          'Only an owner may make or unmake an owner (403); the last owner cannot be made anything else (400). ' +
          "It takes effect at once for the member's session and every key they made. " +
          'The same role again changes nothing. The audit log gets an entry (member.role_changed).',
        params: s.MemberParams,
        body: s.ChangeMemberBody,
        response: { 200: s.TeamMember, ...ERRORS },
      },
    },
    async (request) => {
      const principal = principalOf(request);
      const { teamId } = principal;
      const { memberId } = request.params;
      const { role } = request.body;
      const now = clock.now();
      const member = await withLockedTeam(teamId, async (tx, team) => {
        const current = await getMember(tx, teamId, memberId);
        if (!current) throw notFound('Member');
        checkRoleChange(principal, team, current, role);
        if (current.role === role) return current;
        const changed = (await changeMemberRole(tx, teamId, memberId, role, now))!;
        const change = { action: 'member.role_changed' as const, member: changed, path: memberPath(memberId) };
        await auditMemberChange(tx, writers, principal, { ...change, status: 200 }, now);
        return changed;
      });
      deps.principals.invalidateTeam(teamId);
      return memberView(member);
    },
  );

  api.delete(
    '/v1/team/members/:memberId',
    {
      config: { access: 'teamAdminManage' },
      schema: {
        ...ROUTE,
        summary: 'Remove a member from the team (Herald extension)',
        description:
          'Any member, the calling one too (to leave the team), but the last owner (400); only an owner may remove ' +
          'an owner (403). Their dashboard session no longer reaches the team; the keys they made keep working ' +
          'with no maker recorded, so they lose what needs a team admin. The audit log gets an entry (member.removed).',
        params: s.MemberParams,
        response: { 200: s.RemovedMember, ...ERRORS },
      },
    },
    async (request) => {
      const principal = principalOf(request);
      const { teamId } = principal;
      const { memberId } = request.params;
      const now = clock.now();
      await withLockedTeam(teamId, async (tx, team) => {
        const member = await getMember(tx, teamId, memberId);
        if (!member) throw notFound('Member');
        checkRemoval(principal, team, member);
        await removeMember(tx, teamId, memberId);
        const change = { action: 'member.removed' as const, member, path: memberPath(memberId), status: 200 };
        await auditMemberChange(tx, writers, principal, change, now);
      });
      deps.principals.invalidateTeam(teamId);
      return { id: memberId, deleted: true as const };
    },
  );
}
