// Teams and their members: the tenants every other area hangs from.
import type { Kysely } from 'kysely';
import type { Currency, Database, Member, MemberRole, Team, TeamPlan } from '../db/schema.ts';
import { announceAuthChange } from './auth/auth-events.ts';
import { defaultApiRateLimit } from './plans.ts';

interface TeamInput {
  name: string;
  plan?: TeamPlan;
  currency?: Currency;
  smsEnabled?: boolean;
}

interface TeamChanges {
  plan?: TeamPlan;
  currency?: Currency;
  smsEnabled?: boolean;
  apiRateLimit?: number;
  stripeCustomerId?: string | null;
}

export async function createTeam(db: Kysely<Database>, input: TeamInput, now: Date): Promise<Team> {
  const plan = input.plan ?? 'free';
  return db
    .insertInto('teams')
    .values({
      name: input.name,
      plan,
      currency: input.currency ?? 'USD',
      sms_enabled: input.smsEnabled ?? false,
      api_rate_limit: defaultApiRateLimit(plan),
      created_at: now,
      updated_at: now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function getTeam(db: Kysely<Database>, teamId: number): Promise<Team | undefined> {
  return db.selectFrom('teams').selectAll().where('id', '=', teamId).executeTakeFirst();
}

export async function updateTeam(
  db: Kysely<Database>,
  teamId: number,
  changes: TeamChanges,
  now: Date,
): Promise<Team | undefined> {
  return db.transaction().execute(async (tx) => {
    const team = await tx
      .updateTable('teams')
      .set({
        plan: changes.plan,
        currency: changes.currency,
        sms_enabled: changes.smsEnabled,
        api_rate_limit: changes.apiRateLimit,
        stripe_customer_id: changes.stripeCustomerId,
        updated_at: now,
      })
      .where('id', '=', teamId)
      .returningAll()
      .executeTakeFirst();
    // Cached principals carry the team's rate limit.
    if (team && changes.apiRateLimit !== undefined) await announceAuthChange(tx, teamId);
    return team;
  });
}

export async function addMember(
  db: Kysely<Database>,
  teamId: number,
  input: { email: string; name?: string | null; role: MemberRole },
  now: Date,
): Promise<Member> {
  return db
    .insertInto('members')
    .values({
      team_id: teamId,
      email: input.email.trim().toLowerCase(),
      name: input.name ?? null,
      role: input.role,
      created_at: now,
      updated_at: now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function getMember(db: Kysely<Database>, teamId: number, memberId: number): Promise<Member | undefined> {
  return db
    .selectFrom('members')
    .selectAll()
    .where('team_id', '=', teamId)
    .where('id', '=', memberId)
    .executeTakeFirst();
}

export async function listMembers(db: Kysely<Database>, teamId: number): Promise<Member[]> {
  return db.selectFrom('members').selectAll().where('team_id', '=', teamId).orderBy('id').execute();
}

/** A role change takes effect at once for every key the member made. */
export async function setMemberRole(
  db: Kysely<Database>,
  teamId: number,
  memberId: number,
  role: MemberRole,
  now: Date,
): Promise<Member | undefined> {
  return db.transaction().execute(async (tx) => {
    const member = await tx
      .updateTable('members')
      .set({ role, updated_at: now })
      .where('team_id', '=', teamId)
      .where('id', '=', memberId)
      .returningAll()
      .executeTakeFirst();
    if (member) await announceAuthChange(tx, teamId);
    return member;
  });
}
