// The statements of Accounts: teams, their members and their API keys (the tenants every other area
// hangs from). Changes that cached principals carry are announced in the same transaction.
import { sql, type Kysely, type RawBuilder, type Transaction } from 'kysely';
import type {
  ApiKeyKind,
  BillingMethod,
  Currency,
  Database,
  Member,
  MemberRole,
  Team,
  TeamPlan,
} from '../db/schema.ts';
import { announceAuthChange } from '../platform/auth/queries.ts';
import { effectivePlanSql } from '../platform/effective-plan.ts';
import { defaultApiRateLimit } from '../platform/plans.ts';

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

/** Two processes starting at once against one server must not both create the first team. */
export async function lockTeamsAndFindAny(tx: Kysely<Database>): Promise<boolean> {
  await sql`LOCK TABLE teams IN SHARE ROW EXCLUSIVE MODE`.execute(tx);
  return (await tx.selectFrom('teams').select('id').limit(1).executeTakeFirst()) !== undefined;
}

export interface ApiKeyRow {
  id: string;
  kind: ApiKeyKind;
  name: string | null;
  keyHash: Buffer;
  keyHint: string;
  memberId: number | null;
  domainId: number | null;
  /** Absent: the database's time. */
  createdAt?: Date;
}

export async function insertApiKey(db: Kysely<Database>, teamId: number, key: ApiKeyRow): Promise<void> {
  await db
    .insertInto('api_keys')
    .values({
      id: key.id,
      team_id: teamId,
      kind: key.kind,
      name: key.name,
      key_hash: key.keyHash,
      key_hint: key.keyHint,
      member_id: key.memberId,
      domain_id: key.domainId,
      created_at: key.createdAt,
    })
    .execute();
}

/**
 * Deletes the key in the caller's transaction and announces it, so that it stops working at once
 * in every API process when that commits (see platform/auth/queries.ts). Undefined: no such key in
 * the team.
 */
export async function revokeApiKey(tx: Transaction<Database>, teamId: number, keyId: string) {
  const revoked = await tx
    .deleteFrom('api_keys')
    .where('team_id', '=', teamId)
    .where('id', '=', keyId)
    .returning(['id', 'kind', 'name', 'key_hint', 'domain_id'])
    .executeTakeFirst();
  if (revoked) await announceAuthChange(tx, teamId);
  return revoked;
}

/** revokeApiKey in a transaction of its own (the admin API). */
export async function deleteApiKey(db: Kysely<Database>, teamId: number, keyId: string): Promise<boolean> {
  return db.transaction().execute(async (tx) => (await revokeApiKey(tx, teamId, keyId)) !== undefined);
}

/** The team's keys, newest first (never the keys themselves: only their hints). */
export async function listApiKeys(db: Kysely<Database>, teamId: number) {
  return db
    .selectFrom('api_keys')
    .select(['id', 'kind', 'name', 'key_hint', 'member_id', 'domain_id', 'created_at', 'last_used_at'])
    .where('team_id', '=', teamId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
}

/** The team's name (int expression), NULL for no team: a fragment another area's one-statement read embeds. */
export function teamNameOf(teamId: RawBuilder<unknown>): RawBuilder<string | null> {
  return sql<string | null>`(SELECT tn.name FROM teams AS tn WHERE tn.id = ${teamId})`;
}

/** The plan the team's limits apply today (platform/effective-plan.ts), NULL for no team: a fragment to embed. */
export function teamEffectivePlanOf(teamId: RawBuilder<unknown>): RawBuilder<TeamPlan | null> {
  return sql<TeamPlan | null>`(SELECT ${effectivePlanSql('tp')} FROM teams AS tp WHERE tp.id = ${teamId})`;
}

/** The team's plan and billing method, its row locked so plan changes and renewals take turns (billing). */
export async function lockTeamBilling(db: Kysely<Database>, teamId: number) {
  return db
    .selectFrom('teams')
    .select(['plan', 'billing_method'])
    .where('id', '=', teamId)
    .forUpdate()
    .executeTakeFirst();
}

export interface TeamBillingColumns {
  plan: TeamPlan;
  effective_plan: TeamPlan;
  billing_method: BillingMethod;
  currency: Currency;
  stripe_customer_id: string | null;
}

/** The team's billing columns and the plan enforced today (platform/effective-plan.ts). */
export async function teamBillingColumns(
  db: Kysely<Database>,
  teamId: number,
): Promise<TeamBillingColumns | undefined> {
  const result = await sql<TeamBillingColumns>`
    SELECT t.plan, ${effectivePlanSql('t')} AS effective_plan, t.billing_method, t.currency, t.stripe_customer_id
    FROM teams t WHERE t.id = ${teamId}`.execute(db);
  return result.rows[0];
}

export async function setTeamPlanAndBillingMethod(
  db: Kysely<Database>,
  teamId: number,
  change: { plan: TeamPlan; method: BillingMethod },
  now: Date,
): Promise<void> {
  await db
    .updateTable('teams')
    .set({ billing_method: change.method, plan: change.plan, updated_at: now })
    .where('id', '=', teamId)
    .execute();
}

/** Every team on Pro paid from its wallet, by id. */
export async function teamsPayingProFromWallet(db: Kysely<Database>): Promise<number[]> {
  const rows = await db
    .selectFrom('teams')
    .select('id')
    .where('plan', '=', 'pro')
    .where('billing_method', '=', 'wallet')
    .orderBy('id')
    .execute();
  return rows.map((r) => r.id);
}

/** The teams whose Stripe customer this is (a Stripe event names the customer, not the team). */
export async function teamsOfStripeCustomer(db: Kysely<Database>, customerId: string): Promise<number[]> {
  const rows = await db.selectFrom('teams').select('id').where('stripe_customer_id', '=', customerId).execute();
  return rows.map((r) => r.id);
}

/** The addresses of the team's owners and admins, in member id order (who a team notice goes to). */
export async function ownerAndAdminEmails(db: Kysely<Database>, teamId: number): Promise<string[]> {
  const rows = await db
    .selectFrom('members')
    .select('email')
    .where('team_id', '=', teamId)
    .where('role', 'in', ['OWNER', 'ADMIN'])
    .orderBy('id')
    .execute();
  return rows.map((row) => row.email);
}

/** The name a key was given; null when it has none or is gone. */
export async function apiKeyName(db: Kysely<Database>, teamId: number, keyId: string): Promise<string | null> {
  const row = await db
    .selectFrom('api_keys')
    .select('name')
    .where('team_id', '=', teamId)
    .where('id', '=', keyId)
    .executeTakeFirst();
  return row?.name ?? null;
}
