// Billing's ledger reads: the wallet's rows (read through wallet/index.ts; the wallet area writes
// them) with the invoice number of each Pro month, which billing keeps in pro_month_events.
import { getTeam } from '../accounts/index.ts';
import type { Db } from '../db/handle.ts';
import type { WalletTransactionRow } from '../db/schema-wallet.ts';
import { findByReceipt, ledgerPage as walletLedgerPage, type LedgerFilter } from '../wallet/index.ts';

export type { LedgerFilter };
export type LedgerRow = WalletTransactionRow & { invoice_number: string | null };

/** The invoice numbers of the Pro months paid by these transactions of the team, by transaction id. */
async function invoiceNumbers(db: Db, teamId: number, transactionIds: string[]): Promise<Map<string, string | null>> {
  if (transactionIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('pro_month_events')
    .select(['transaction_id', 'invoice_number'])
    .where('team_id', '=', teamId)
    .where('transaction_id', 'in', transactionIds)
    .execute();
  return new Map(rows.map((row) => [row.transaction_id!, row.invoice_number]));
}

async function withInvoiceNumbers(db: Db, teamId: number, rows: WalletTransactionRow[]): Promise<LedgerRow[]> {
  const numbers = await invoiceNumbers(
    db,
    teamId,
    rows.map((row) => row.id),
  );
  return rows.map((row) => ({ ...row, invoice_number: numbers.get(row.id) ?? null }));
}

/** Up to `limit` rows of the team's ledger, newest first, with the invoice number of Pro months. */
export async function ledgerPage(db: Db, teamId: number, filter: LedgerFilter, limit: number): Promise<LedgerRow[]> {
  return withInvoiceNumbers(db, teamId, await walletLedgerPage(db, teamId, filter, limit));
}

/** The row that has receipt `reference`, with its team's name; undefined for another team's. */
export async function findReceiptRow(
  db: Db,
  teamId: number,
  reference: string,
): Promise<(LedgerRow & { team_name: string }) | undefined> {
  const row = await findByReceipt(db, teamId, reference);
  const team = row === undefined ? undefined : await getTeam(db, teamId);
  if (row === undefined || team === undefined) return undefined;
  const [withNumber] = await withInvoiceNumbers(db, teamId, [row]);
  return { ...withNumber!, team_name: team.name };
}
