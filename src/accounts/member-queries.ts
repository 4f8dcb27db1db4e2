// The statements of the team's own member endpoints (member-routes.ts), team id first, each in the
// caller's transaction. Changes to a role or a member announce themselves (announceAuthChange): a
// cached principal carries its maker's role, and a removed member's keys lose their maker.
import { sql, type Transaction } from 'kysely';
import type { Database, Member, MemberRole, TeamPlan } from '../db/schema.ts';
import { announceAuthChange } from '../platform/auth/queries.ts';
import { effectivePlanSql } from '../platform/effective-plan.ts';

export interface LockedTeamMembers {
  /** The team's name, as an invite's sign-in mail names it. */
  name: string;
  /** The plan the team's limits apply today (the usage read's plan.effectiveKey). */
  plan: TeamPlan;
  members: number;
  owners: number;
}

/**
 * Locks the team's row, so that the member changes of one team take turns (two invites cannot both
 * take the plan's last seat, two demotions cannot both leave the team without an owner), and counts
 * its members and owners. Undefined: no such team.
 */
export async function lockTeamMembers(
  tx: Transaction<Database>,
  teamId: number,
): Promise<LockedTeamMembers | undefined> {
  const team = await tx
    .selectFrom('teams')
    .select(['name', effectivePlanSql('teams').as('plan')])
    .where('id', '=', teamId)
    .forUpdate()
    .executeTakeFirst();
  if (!team) return undefined;
  const counts = await tx
    .selectFrom('members')
    .select([sql<string>`count(*)`.as('members'), sql<string>`count(*) FILTER (WHERE role = 'OWNER')`.as('owners')])
    .where('team_id', '=', teamId)
    .executeTakeFirstOrThrow();
  return { name: team.name, plan: team.plan, members: Number(counts.members), owners: Number(counts.owners) };
}

/** The team's member with this address (compared lower-cased, as members_team_email is). */
export async function memberByEmail(tx: Transaction<Database>, teamId: number, email: string) {
  return tx
    .selectFrom('members')
    .select('id')
    .where('team_id', '=', teamId)
    .where(sql<string>`lower(email)`, '=', email.toLowerCase())
    .executeTakeFirst();
}

export async function changeMemberRole(
  tx: Transaction<Database>,
  teamId: number,
  memberId: number,
  role: MemberRole,
  now: Date,
): Promise<Member | undefined> {
  const member = await tx
    .updateTable('members')
    .set({ role, updated_at: now })
    .where('team_id', '=', teamId)
    .where('id', '=', memberId)
    .returningAll()
    .executeTakeFirst();
  if (member) await announceAuthChange(tx, teamId);
  return member;
}

/** Deletes the member; the keys they made stay, their maker no longer recorded (ON DELETE SET NULL). */
export async function removeMember(
  tx: Transaction<Database>,
  teamId: number,
  memberId: number,
): Promise<Member | undefined> {
  const member = await tx
    .deleteFrom('members')
    .where('team_id', '=', teamId)
    .where('id', '=', memberId)
    .returningAll()
    .executeTakeFirst();
  if (member) await announceAuthChange(tx, teamId);
  return member;
}
