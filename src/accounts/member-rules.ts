// The rules of member changes made through the API, each throwing the answer it gives: only an
// owner makes, unmakes or removes an owner (an admin could otherwise take the team over); a team
// keeps at least one owner; the plan's member count (the usage read's resources.teamMembers).
import type { Member, MemberRole } from '../db/schema.ts';
import type { Principal } from '../platform/auth/api-keys.ts';
import { ApiError } from '../platform/errors.ts';
import { limitReached, memberLimit } from '../platform/plans.ts';
import type { LockedTeamMembers } from './member-queries.ts';

const ownerOnly = (field: string, what: string) =>
  new ApiError(403, 'FORBIDDEN', `${field}: only an owner can ${what}; you are an admin of this team`);

export function checkInvite(principal: Principal, team: LockedTeamMembers, role: MemberRole): void {
  if (role === 'OWNER' && principal.makerRole !== 'OWNER') throw ownerOnly('role', 'add an owner');
  const limit = memberLimit(team.plan);
  if (limitReached(team.members, limit))
    throw new ApiError(
      403,
      'FORBIDDEN',
      `The team's plan (${team.plan}) allows ${limit} members and the team has ${team.members}; ` +
        'remove a member first, or move to a plan with more',
    );
}

export function checkRoleChange(principal: Principal, team: LockedTeamMembers, member: Member, role: MemberRole): void {
  if (member.role === role) return;
  if ((member.role === 'OWNER' || role === 'OWNER') && principal.makerRole !== 'OWNER')
    throw ownerOnly('role', 'make or unmake an owner');
  if (member.role === 'OWNER' && team.owners <= 1)
    throw new ApiError(
      400,
      'BAD_REQUEST',
      `role: ${member.email} is the team's last owner; make another member an owner first`,
    );
}

export function checkRemoval(principal: Principal, team: LockedTeamMembers, member: Member): void {
  if (member.role !== 'OWNER') return;
  if (principal.makerRole !== 'OWNER') throw ownerOnly('memberId', 'remove an owner');
  if (team.owners <= 1)
    throw new ApiError(
      400,
      'BAD_REQUEST',
      `memberId: ${member.email} is the team's last owner; make another member an owner first`,
    );
}
