// The Pro months paid from the wallet (0016_billing.sql), team id first: an append-only list of
// transitions per team (pro_month_events), the deployment's gapless invoice counter and the
// teams the renewal chore must look at. The team row's billing columns: team-billing-queries.ts.
import { sql } from 'kysely';
import type { Db } from '../db/handle.ts';
import type { ProMonthEventKind, ProMonthEventRow } from '../db/schema-billing.ts';

export async function latestProMonthEvent(db: Db, teamId: number): Promise<ProMonthEventRow | undefined> {
  return db
    .selectFrom('pro_month_events')
    .selectAll()
    .where('team_id', '=', teamId)
    .orderBy('seq', 'desc')
    .limit(1)
    .executeTakeFirst();
}

export interface NewProMonthEvent {
  kind: ProMonthEventKind;
  periodStart: Date;
  periodEnd: Date;
  amountMinor: bigint;
  currency: string;
  graceStartedAt?: Date | null;
  graceEndsAt?: Date | null;
  transactionId?: string | null;
  invoiceNumber?: string | null;
  at: Date;
}

/** Appends the team's next transition; the caller holds the wallet lock, so seq cannot race. */
export async function appendProMonthEvent(db: Db, teamId: number, event: NewProMonthEvent): Promise<ProMonthEventRow> {
  return db
    .insertInto('pro_month_events')
    .values({
      team_id: teamId,
      seq: sql<number>`(SELECT COALESCE(MAX(seq), 0) + 1 FROM pro_month_events WHERE team_id = ${teamId})`,
      kind: event.kind,
      period_start: event.periodStart,
      period_end: event.periodEnd,
      amount_minor: event.amountMinor,
      currency: event.currency,
      grace_started_at: event.graceStartedAt ?? null,
      grace_ends_at: event.graceEndsAt ?? null,
      transaction_id: event.transactionId ?? null,
      invoice_number: event.invoiceNumber ?? null,
      created_at: event.at,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** The next number of a gapless deployment counter; the row stays locked until the caller commits. */
export async function nextCounterValue(db: Db, name: string): Promise<bigint> {
  const result = await sql<{ value: bigint | string }>`
    UPDATE billing_counters SET value = value + 1 WHERE name = ${name} RETURNING value`.execute(db);
  return BigInt(result.rows[0]!.value);
}

/**
 * Teams on Pro paid from the wallet whose newest transition is due at `now`: a paid month that
 * ended, a grace period (to retry and to end) or a lapse (to retry); those after `afterTeamId`, by id,
 * so a page of teams that stay due (lapsed wallets still short) never hides the teams behind it.
 */
export async function teamsDueForRenewal(db: Db, now: Date, limit: number, afterTeamId = 0): Promise<number[]> {
  const result = await sql<{ team_id: number }>`
    SELECT t.id AS team_id FROM teams t
    CROSS JOIN LATERAL (
      SELECT kind, period_end FROM pro_month_events e WHERE e.team_id = t.id ORDER BY seq DESC LIMIT 1
    ) e
    WHERE t.plan = 'pro' AND t.billing_method = 'wallet' AND t.id > ${afterTeamId}
      AND (e.kind IN ('GRACE', 'LAPSED') OR (e.kind = 'PAID' AND e.period_end <= ${now}))
    ORDER BY t.id
    LIMIT ${limit}`.execute(db);
  return result.rows.map((r) => Number(r.team_id));
}
