// Table types of the prepaid wallet, its ledger and sender IDs (0011_wallet.sql).
import type { ColumnType, Selectable } from 'kysely';
import type { Currency, Timestamp } from './column-types.ts';

/** A wallet holds the team's currency; the list is column-types.ts's. */
export type WalletCurrency = Currency;

export type WalletTransactionType =
  | 'TOP_UP'
  | 'SMS_CHARGE'
  | 'SMS_RELEASE'
  | 'SENDER_ID_FEE'
  | 'SENDER_ID_REFUND'
  | 'ADJUSTMENT'
  | 'REVERSAL'
  // Billing's (src/billing): a Pro month and Pro units past the included amount, paid from the wallet.
  | 'PRO_MONTH'
  | 'PRO_UNITS';

export interface WalletsTable {
  team_id: number;
  currency: WalletCurrency;
  balance: ColumnType<bigint, bigint | undefined, bigint>;
  last_seq: ColumnType<bigint, bigint | undefined, bigint>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** Append-only: rows are inserted, never updated. */
export interface WalletTransactionsTable {
  id: string;
  team_id: number;
  /** 1, 2, 3… per team, in lock order: the ledger's exact order. */
  seq: bigint;
  type: WalletTransactionType;
  amount: bigint;
  balance_after: bigint;
  currency: WalletCurrency;
  reference: string;
  receipt_reference: string | null;
  description: string | null;
  reverses_id: string | null;
  created_at: Timestamp;
}

export interface SenderIdsTable {
  id: string;
  team_id: number;
  sender_id: string;
  country: string;
  status: ColumnType<'APPROVED', 'APPROVED' | undefined, 'APPROVED'>;
  fee_transaction_id: string | null;
  created_at: Timestamp;
  deleted_at: Timestamp | null;
}

export type WalletRow = Selectable<WalletsTable>;
export type WalletTransactionRow = Selectable<WalletTransactionsTable>;
export type SenderIdRow = Selectable<SenderIdsTable>;
