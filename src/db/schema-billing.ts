// Table types of billing (0016_billing.sql): Pro months paid from the wallet, the
// deployment's invoice counters, daily Pro unit charges and the audit log of billing reads.
import type { ColumnType, Selectable } from 'kysely';
import type { Timestamp } from './column-types.ts';

/** operator.md: how a team pays its plan (`teams.billing_method`). */
export type BillingMethod = 'card' | 'wallet' | 'none';

/** One transition of a team's Pro months paid from the wallet; the newest row is the state. */
export type ProMonthEventKind = 'PAID' | 'GRACE' | 'LAPSED' | 'STOPPED';

/** Append-only: rows are inserted, never updated. */
export interface ProMonthEventsTable {
  team_id: number;
  seq: number;
  kind: ProMonthEventKind;
  period_start: Timestamp;
  period_end: Timestamp;
  amount_minor: bigint;
  currency: string;
  grace_started_at: Timestamp | null;
  grace_ends_at: Timestamp | null;
  transaction_id: string | null;
  invoice_number: string | null;
  created_at: Timestamp;
}

export interface BillingCountersTable {
  name: string;
  value: bigint;
}

export interface ProUnitChargesTable {
  team_id: number;
  month: ColumnType<Date, string, string>;
  units_charged: ColumnType<bigint, bigint | undefined, bigint>;
  updated_at: Timestamp;
}

export interface BillingAuditLogTable {
  id: string;
  team_id: number;
  api_key_id: string | null;
  key_name: string | null;
  key_kind: string;
  member_id: number | null;
  method: string;
  path: string;
  query: string;
  status: number;
  error_code: string | null;
  created_at: Timestamp;
  /** A change a key made (api_key.created, ...); null on a billing read (0021). */
  action: string | null;
  /** The key id or address the change was made to. */
  target: string | null;
}

export interface BillingTextSpendTable {
  team_id: number;
  month: ColumnType<Date, string, string>;
  through_seq: bigint;
  spend_minor: bigint;
}

export type ProMonthEventRow = Selectable<ProMonthEventsTable>;
export type BillingAuditLogRow = Selectable<BillingAuditLogTable>;
