// The contract's Receipt: a ledger row that has a receipt (top-ups, sender ID fees, Pro months and
// units paid from the wallet), amounts formatted without sign and a direction instead.
import type { z } from 'zod';
import { formatMinor, minorToJson, type Currency } from '../platform/money.ts';
import type { LedgerRow } from './ledger-queries.ts';
import type { Receipt } from './schemas.ts';

const TITLES: Record<string, string> = {
  TOP_UP: 'Wallet top-up',
  SENDER_ID_FEE: 'Sender ID fee',
  SENDER_ID_REFUND: 'Sender ID fee refund',
  PRO_MONTH: 'Pro plan, one month',
  PRO_UNITS: 'Pro units past the included amount',
  ADJUSTMENT: 'Wallet adjustment',
  REVERSAL: 'Reversal',
};

export function receiptView(row: LedgerRow): z.infer<typeof Receipt> {
  const currency = row.currency as Currency;
  const title = TITLES[row.type] ?? row.type;
  return {
    invoiceNumber: row.invoice_number,
    reference: row.receipt_reference!,
    type: row.type,
    title,
    description: row.description ?? title,
    amountMinor: minorToJson(row.amount),
    amountFormatted: formatMinor(row.amount < 0n ? -row.amount : row.amount, currency),
    direction: row.amount < 0n ? 'out' : 'in',
    balanceAfterMinor: minorToJson(row.balance_after),
    balanceAfterFormatted: formatMinor(row.balance_after, currency),
    currency,
    createdAt: row.created_at.toISOString(),
  };
}
