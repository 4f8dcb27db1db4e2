// The billing reads of the wallet ledger (the wallet area writes it; billing only reads), team id
// first. Pages walk the index (team_id, created_at DESC, seq DESC); a cursor is the last row's seq,
// and created_at never goes backwards along seq, so (created_at, seq) of that row bounds the next page.
import { sql } from 'kysely';
import type { Db } from '../db/handle.ts';
import type { WalletTransactionRow, WalletTransactionType } from '../db/schema-wallet.ts';

export interface LedgerFilter {
  type?: WalletTransactionType;
  from?: Date;
  to?: Date;
  /** seq of the last row of the previous page. */
  afterSeq?: number;
}

export type LedgerRow = WalletTransactionRow & { invoice_number: string | null };

/** Up to `limit` rows of the team's ledger, newest first, with the invoice number of Pro months. */
export async function ledgerPage(db: Db, teamId: number, filter: LedgerFilter, limit: number): Promise<LedgerRow[]> {
  const result = await sql<LedgerRow>`
    SELECT t.*, p.invoice_number FROM wallet_transactions t
    LEFT JOIN pro_month_events p ON p.team_id = t.team_id AND p.transaction_id = t.id
    WHERE t.team_id = ${teamId}
      ${filter.type === undefined ? sql`` : sql`AND t.type = ${filter.type}`}
      ${filter.from === undefined ? sql`` : sql`AND t.created_at >= ${filter.from}`}
      ${filter.to === undefined ? sql`` : sql`AND t.created_at < ${filter.to}`}
      ${
        filter.afterSeq === undefined
          ? sql``
          : sql`AND t.seq < ${filter.afterSeq} AND t.created_at <= (SELECT c.created_at FROM wallet_transactions c
              WHERE c.team_id = ${teamId} AND c.seq = ${filter.afterSeq})`
      }
    ORDER BY t.created_at DESC, t.seq DESC
    LIMIT ${limit}`.execute(db);
  return result.rows.map(normalise);
}

/** The row that has receipt `reference`, with its team's name; undefined for another team's. */
export async function findReceiptRow(
  db: Db,
  teamId: number,
  reference: string,
): Promise<(LedgerRow & { team_name: string }) | undefined> {
  const result = await sql<LedgerRow & { team_name: string }>`
    SELECT t.*, p.invoice_number, tm.name AS team_name FROM wallet_transactions t
    JOIN teams tm ON tm.id = t.team_id
    LEFT JOIN pro_month_events p ON p.team_id = t.team_id AND p.transaction_id = t.id
    WHERE t.team_id = ${teamId} AND t.receipt_reference = ${reference}`.execute(db);
  const row = result.rows[0];
  return row === undefined ? undefined : { ...normalise(row), team_name: row.team_name };
}

export async function walletCurrency(db: Db, teamId: number): Promise<string | null> {
  const result = await sql<{ currency: string }>`SELECT currency FROM wallets WHERE team_id = ${teamId}`.execute(db);
  return result.rows[0]?.currency ?? null;
}

/** Raw SQL rows: bigint columns arrive as strings from pg, numbers or bigints from PGlite. */
function normalise(row: LedgerRow): LedgerRow {
  return {
    ...row,
    seq: BigInt(row.seq),
    amount: BigInt(row.amount),
    balance_after: BigInt(row.balance_after),
    created_at: row.created_at instanceof Date ? row.created_at : new Date(row.created_at),
  };
}
