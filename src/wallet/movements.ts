// The wallet's movements, each inside the caller's transaction: charges and releases (SMS, fees),
// and the operator's top-ups, adjustments and reversals (operator.md, "More admin API").
import type { WalletRow, WalletTransactionRow } from '../db/schema-wallet.ts';
import { ApiError, badRequest, conflict, notFound } from '../platform/errors.ts';
import { append, giveBack, lockOrOpenWallet, planMovement, type Movement, type Shortfall } from './ledger.ts';
import { findByReference, findTransaction, lockWallet, type Tx } from './queries.ts';
import { newReceiptReference } from './receipts.ts';

/** Row kinds a charge may have (Pro months and units join later). */
export type ChargeType = 'SMS_CHARGE' | 'SENDER_ID_FEE';

export interface ChargeInput {
  /** What leaves the wallet, > 0. */
  amountMinor: bigint;
  type: ChargeType;
  /** Unique per team and type, e.g. the SMS id: a second charge for it is 409. */
  reference: string;
  description?: string | null;
  at: Date;
}

function chargeMovement(input: ChargeInput): Movement {
  if (input.amountMinor <= 0n) throw new Error(`charge of ${input.amountMinor}: a charge is positive`);
  return {
    type: input.type,
    amountMinor: -input.amountMinor,
    reference: input.reference,
    description: input.description ?? null,
    // Fees have receipts (the billing reads list them); SMS charges do not.
    receiptReference: input.type === 'SENDER_ID_FEE' ? newReceiptReference() : null,
  };
}

/**
 * Takes money out of the team's wallet in the caller's transaction. 402 INSUFFICIENT_BALANCE, with
 * nothing written, when the balance cannot cover it (a team without a wallet has a balance of 0).
 */
export async function charge(tx: Tx, teamId: number, input: ChargeInput): Promise<WalletTransactionRow> {
  const movement = chargeMovement(input);
  const wallet = await lockWallet(tx, teamId);
  if (!wallet) throw new ApiError(402, 'INSUFFICIENT_BALANCE', 'The wallet is empty: top it up first');
  if (await findByReference(tx, teamId, input.type, input.reference)) {
    throw conflict(`${input.type} ${input.reference} was already charged`);
  }
  return append(tx, wallet, movement, input.at);
}

/**
 * A charge planned on a wallet the caller locked (lockWallets), to be written with others in one
 * statement (writeMovements). For fresh references only (a message id made for this charge): unlike
 * charge() it does not look for an earlier charge of the reference. 402 as charge() answers.
 */
export function planCharge(wallet: WalletRow, input: ChargeInput): WalletTransactionRow {
  return planMovement(wallet, chargeMovement(input), input.at);
}

/**
 * Gives an SMS charge back (the message was refused or failed before sending). At most once per
 * charge: a second release returns the first one and changes nothing.
 */
export async function release(
  tx: Tx,
  teamId: number,
  input: { chargeId: string; description?: string | null; at: Date },
): Promise<WalletTransactionRow> {
  const wallet = await lockWallet(tx, teamId);
  const original = wallet && (await findTransaction(tx, teamId, input.chargeId));
  if (!wallet || !original || original.type !== 'SMS_CHARGE') throw notFound('SMS charge');
  const { row } = await giveBack(
    tx,
    wallet,
    original,
    { type: 'SMS_RELEASE', reference: original.reference, description: input.description ?? null },
    input.at,
  );
  return row;
}

/** Operator top-up; idempotent by reference: the same reference returns the first row (created: false). */
export async function topUp(
  tx: Tx,
  teamId: number,
  input: { amountMinor: bigint; reference?: string; description?: string | null; at: Date },
): Promise<{ row: WalletTransactionRow; created: boolean }> {
  if (input.amountMinor <= 0n) throw badRequest('amountMinor: must be greater than 0');
  const wallet = await lockOrOpenWallet(tx, teamId, input.at);
  // Under the wallet lock, so two top-ups with one reference cannot both pass this check.
  const earlier =
    input.reference === undefined ? undefined : await findByReference(tx, teamId, 'TOP_UP', input.reference);
  if (earlier) return { row: earlier, created: false };
  const row = await append(
    tx,
    wallet,
    {
      type: 'TOP_UP',
      amountMinor: input.amountMinor,
      reference: input.reference,
      description: input.description ?? null,
      receiptReference: newReceiptReference(),
    },
    input.at,
  );
  return { row, created: true };
}

const belowZero: Shortfall = (wallet, amount) =>
  badRequest(`amountMinor: ${amount} would take the balance (${wallet.balance}) below zero`);

/** Operator correction, signed; a debit below zero is 400 with nothing written. */
export async function adjust(
  tx: Tx,
  teamId: number,
  input: { amountMinor: bigint; description: string; at: Date },
): Promise<WalletTransactionRow> {
  if (input.amountMinor === 0n) throw badRequest('amountMinor: must not be 0');
  const wallet = input.amountMinor > 0n ? await lockOrOpenWallet(tx, teamId, input.at) : await lockWallet(tx, teamId);
  if (!wallet) throw badRequest(`amountMinor: ${input.amountMinor} would take the balance (0) below zero`);
  return append(
    tx,
    wallet,
    { type: 'ADJUSTMENT', amountMinor: input.amountMinor, description: input.description },
    input.at,
    belowZero,
  );
}

/**
 * Operator reversal of a top-up or adjustment of this team: 404 for any other team's or unknown id,
 * 400 for another row kind, 409 when it was already reversed, 400 when the balance no longer covers it.
 */
export async function reverse(
  tx: Tx,
  teamId: number,
  input: { transactionId: string; description?: string | null; at: Date },
): Promise<WalletTransactionRow> {
  const wallet = await lockWallet(tx, teamId);
  const original = wallet && (await findTransaction(tx, teamId, input.transactionId));
  if (!wallet || !original) throw notFound('wallet transaction');
  if (original.type !== 'TOP_UP' && original.type !== 'ADJUSTMENT') {
    throw badRequest(`transactionId: a ${original.type} cannot be reversed, only a TOP_UP or an ADJUSTMENT`);
  }
  const reversal = await giveBack(
    tx,
    wallet,
    original,
    {
      type: 'REVERSAL',
      reference: original.id,
      description:
        input.description ??
        `Reversal of ${original.type === 'TOP_UP' ? 'top-up' : 'adjustment'} ${original.reference}`,
    },
    input.at,
    (w, amount) =>
      badRequest(`transactionId: reversing it (${amount}) would take the balance (${w.balance}) below zero`),
  );
  if (!reversal.created) throw conflict(`transaction ${original.id} was already reversed by ${reversal.row.id}`);
  return reversal.row;
}
