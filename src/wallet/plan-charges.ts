// Charges for the plan, paid from the wallet (billing, 0016_billing.sql): a Pro month and Pro units
// past the included amount. Appended like every other row, under the wallet lock in the caller's
// transaction; each has a receipt. Separate from charge() so the SMS charge path stays as it is.
import type { WalletTransactionRow } from '../db/schema-wallet.ts';
import { ApiError } from '../platform/errors.ts';
import { append } from './ledger.ts';
import { findByReference, lockWallet, type Tx } from './queries.ts';
import { newReceiptReference } from './receipts.ts';

export type PlanChargeType = 'PRO_MONTH' | 'PRO_UNITS';

export interface PlanChargeInput {
  type: PlanChargeType;
  /** What leaves the wallet, > 0. */
  amountMinor: bigint;
  /** Unique per team and type (the month, the day's units): the same reference again is the first row. */
  reference: string;
  description?: string | null;
  at: Date;
}

/**
 * Takes a plan charge from the wallet. `{ paid: false }` with nothing written when the wallet is
 * missing or short (the caller starts a grace period, never a 402); the row of an earlier charge
 * with the same reference when there is one.
 */
export async function chargePlan(
  tx: Tx,
  teamId: number,
  input: PlanChargeInput,
): Promise<{ paid: true; row: WalletTransactionRow } | { paid: false; balance: bigint }> {
  if (input.amountMinor <= 0n) throw new Error(`plan charge of ${input.amountMinor}: a charge is positive`);
  const wallet = await lockWallet(tx, teamId);
  if (!wallet) return { paid: false, balance: 0n };
  const earlier = await findByReference(tx, teamId, input.type, input.reference);
  if (earlier) return { paid: true, row: earlier };
  if (wallet.balance < input.amountMinor) return { paid: false, balance: wallet.balance };
  try {
    const row = await append(
      tx,
      wallet,
      {
        type: input.type,
        amountMinor: -input.amountMinor,
        reference: input.reference,
        description: input.description ?? null,
        receiptReference: newReceiptReference(),
      },
      input.at,
    );
    return { paid: true, row };
  } catch (error) {
    // append refuses before writing anything, so the transaction is still usable.
    if (error instanceof ApiError && error.status === 402) return { paid: false, balance: wallet.balance };
    throw error;
  }
}
