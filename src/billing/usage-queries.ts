// What the usage read counts, team id first, from counters and small tables only: the per-day email
// counters (team_daily_usage, a month is at most 31 rows), the monthly SMS and code
// counters, and counts of domains, contact books, members and webhooks. The emails table (and the
// verifications table) is never scanned. It reads nine areas' tables in one statement: one round trip
// for a read with a 20 ms median target (docs/ARCHITECTURE.md, "Who may import whom").
import { sql } from 'kysely';
import type { Db } from '../db/handle.ts';
import type { BillingMethod, Currency, TeamPlan } from '../db/schema.ts';
import type { ProMonthEventKind } from '../db/schema-billing.ts';
import { effectivePlanSql } from '../platform/effective-plan.ts';

export interface UsageCounts {
  plan: TeamPlan;
  /** The plan the limits are enforced against today (platform/effective-plan.ts). */
  effectivePlan: TeamPlan;
  /** The newest Pro month transition of a team paid from the wallet; undefined otherwise. */
  walletKind: ProMonthEventKind | undefined;
  billingMethod: BillingMethod;
  currency: Currency;
  apiRateLimit: number;
  marketingThisMonth: number;
  transactionalThisMonth: number;
  totalToday: number;
  domains: number;
  contactBooks: number;
  members: number;
  webhooks: number;
  textsThisMonth: number;
  /** One-time codes sent this month (verification_monthly_codes). */
  codesThisMonth: number;
}

/** Everything in one round trip. `monthStart` and `today` are UTC dates (YYYY-MM-DD). */
export async function usageCounts(
  db: Db,
  teamId: number,
  monthStart: string,
  today: string,
): Promise<UsageCounts | undefined> {
  const result = await sql<Record<string, unknown>>`
    SELECT t.plan, ${effectivePlanSql('t')} AS effective_plan, t.billing_method,
      CASE WHEN t.billing_method = 'wallet' THEN (SELECT e.kind FROM pro_month_events e WHERE e.team_id = t.id
        ORDER BY e.seq DESC LIMIT 1) END AS wallet_kind,
      COALESCE(w.currency, t.currency) AS currency, t.api_rate_limit,
      u.marketing, u.transactional, u.today,
      (SELECT count(*) FROM domains d WHERE d.team_id = t.id AND d.deleted_at IS NULL) AS domains,
      (SELECT count(*) FROM contact_books b WHERE b.team_id = t.id) AS contact_books,
      (SELECT count(*) FROM members m WHERE m.team_id = t.id) AS members,
      (SELECT count(*) FROM webhooks h WHERE h.team_id = t.id) AS webhooks,
      (SELECT COALESCE(SUM(v.parts), 0) FROM sms_monthly_volume v
        WHERE v.team_id = t.id AND v.month = ${monthStart}::date) AS texts,
      (SELECT COALESCE(SUM(c.codes), 0) FROM verification_monthly_codes c
        WHERE c.team_id = t.id AND c.month = ${monthStart}::date) AS codes
    FROM teams t
    LEFT JOIN wallets w ON w.team_id = t.id
    CROSS JOIN LATERAL (
      SELECT COALESCE(SUM(d.marketing), 0) AS marketing, COALESCE(SUM(d.transactional), 0) AS transactional,
        COALESCE(SUM(d.marketing + d.transactional) FILTER (WHERE d.day = ${today}::date), 0) AS today
      FROM team_daily_usage d
      WHERE d.team_id = t.id AND d.day >= ${monthStart}::date AND d.day <= ${today}::date
    ) u
    WHERE t.id = ${teamId}`.execute(db);
  const row = result.rows[0];
  if (!row) return undefined;
  return {
    plan: row.plan as TeamPlan,
    effectivePlan: row.effective_plan as TeamPlan,
    walletKind: (row.wallet_kind ?? undefined) as ProMonthEventKind | undefined,
    billingMethod: row.billing_method as BillingMethod,
    currency: row.currency as Currency,
    apiRateLimit: Number(row.api_rate_limit),
    marketingThisMonth: Number(row.marketing),
    transactionalThisMonth: Number(row.transactional),
    totalToday: Number(row.today),
    domains: Number(row.domains),
    contactBooks: Number(row.contact_books),
    members: Number(row.members),
    webhooks: Number(row.webhooks),
    textsThisMonth: Number(row.texts),
    codesThisMonth: Number(row.codes),
  };
}

/**
 * What the team's SMS cost this calendar month: charges less releases, in minor units (>= 0). The
 * first read of a month sums the month; later reads add only the ledger rows after the kept sum
 * (billing_text_spend, on the ledger's (team_id, seq) index) and keep the new sum. created_at never
 * goes backwards along seq, so every row after a row of this month is of this month or later.
 */
export async function textSpendThisMonth(db: Db, teamId: number, monthStart: Date): Promise<bigint> {
  const month = monthStart.toISOString().slice(0, 10);
  const kept = await db
    .selectFrom('billing_text_spend')
    .select(['through_seq', 'spend_minor'])
    .where('team_id', '=', teamId)
    .where(sql<boolean>`month = ${month}::date`)
    .executeTakeFirst();
  const fresh = await sql<{ through_seq: unknown; spend: unknown }>`
    SELECT max(seq) AS through_seq,
      COALESCE(-SUM(amount) FILTER (WHERE type IN ('SMS_CHARGE', 'SMS_RELEASE')), 0) AS spend
    FROM wallet_transactions
    WHERE team_id = ${teamId} AND ${kept ? sql`seq > ${kept.through_seq}` : sql`created_at >= ${monthStart}`}`.execute(
    db,
  );
  const row = fresh.rows[0];
  const spend = (kept?.spend_minor ?? 0n) + BigInt(String(row?.spend ?? 0));
  if (row?.through_seq !== null && row?.through_seq !== undefined) {
    await sql`INSERT INTO billing_text_spend (team_id, month, through_seq, spend_minor)
      VALUES (${teamId}, ${month}::date, ${BigInt(String(row.through_seq))}, ${spend})
      ON CONFLICT (team_id, month) DO UPDATE SET through_seq = EXCLUDED.through_seq, spend_minor = EXCLUDED.spend_minor
      WHERE billing_text_spend.through_seq < EXCLUDED.through_seq`.execute(db);
  }
  return spend;
}
