// The contract's Wallet transaction object (Billing objects), and its zod schema.
import { z } from 'zod';
import type { WalletTransactionRow } from '../db/schema-wallet.ts';
import { formatMinor, minorToJson } from '../platform/money.ts';

export const WALLET_TRANSACTION_TYPES = [
  'TOP_UP',
  'SMS_CHARGE',
  'SMS_RELEASE',
  'SENDER_ID_FEE',
  'SENDER_ID_REFUND',
  'ADJUSTMENT',
  'REVERSAL',
  'PRO_MONTH',
  'PRO_UNITS',
] as const;

export const WalletTransaction = z.object({
  id: z.string(),
  type: z.string().describe(`row kind: ${WALLET_TRANSACTION_TYPES.join(', ')}`),
  amountMinor: z.number().int().describe('signed: positive into the wallet, negative out'),
  amountFormatted: z.string(),
  balanceAfterMinor: z.number().int(),
  balanceAfterFormatted: z.string(),
  reference: z.string(),
  customerDescription: z.string().nullable(),
  receiptReference: z.string().nullable().describe('set when the row has a receipt'),
  createdAt: z.string(),
});

export function walletTransactionView(row: WalletTransactionRow): z.infer<typeof WalletTransaction> {
  return {
    id: row.id,
    type: row.type,
    amountMinor: minorToJson(row.amount),
    amountFormatted: formatMinor(row.amount, row.currency),
    balanceAfterMinor: minorToJson(row.balance_after),
    balanceAfterFormatted: formatMinor(row.balance_after, row.currency),
    reference: row.reference,
    customerDescription: row.description,
    receiptReference: row.receipt_reference,
    createdAt: row.created_at.toISOString(),
  };
}
