// The ledger core. Every movement locks the team's wallet row (SELECT … FOR UPDATE) inside the
// caller's transaction, checks the new balance, appends one row with its balance_after and moves the
// balance, so concurrent movements of one wallet queue on that lock and the chain stays exact.
// Movements of different teams never wait for each other. The statements are in queries.ts.
import type { WalletRow, WalletTransactionRow, WalletTransactionType } from '../db/schema-wallet.ts';
import { ApiError, notFound } from '../platform/errors.ts';
import { newId } from '../platform/ids.ts';
import { formatMinor, MAX_BALANCE_MINOR } from '../platform/money.ts';
import { findReversalOf, lockWallet, openWallet, writeMovements, type Tx } from './queries.ts';

/** The team's wallet, locked; made (empty, in the team's currency) when the team has none yet. */
export async function lockOrOpenWallet(tx: Tx, teamId: number, now: Date): Promise<WalletRow> {
  const found = await lockWallet(tx, teamId);
  if (found) return found;
  await openWallet(tx, teamId, now);
  const opened = await lockWallet(tx, teamId);
  if (!opened) throw notFound('team');
  return opened;
}

export interface Movement {
  type: WalletTransactionType;
  /** Signed: positive into the wallet, negative out of it. */
  amountMinor: bigint;
  /** Defaults to the new row's id. */
  reference?: string;
  description?: string | null;
  receiptReference?: string | null;
  reversesId?: string | null;
}

/** How a movement that would take the balance below zero is refused. */
export type Shortfall = (wallet: WalletRow, amount: bigint) => ApiError;

export const insufficientBalance: Shortfall = (wallet, amount) =>
  new ApiError(
    402,
    'INSUFFICIENT_BALANCE',
    `The wallet balance (${formatMinor(wallet.balance, wallet.currency)}) cannot cover ${formatMinor(-amount, wallet.currency)}`,
  );

/**
 * The row a movement would append to a wallet locked by the caller, with the wallet (in memory) moved
 * past it; nothing is written (writeMovements does). Refuses below zero or above the cap, so a
 * caller may plan several movements of one wallet in a row and write them together.
 */
export function planMovement(
  wallet: WalletRow,
  movement: Movement,
  now: Date,
  shortfall: Shortfall = insufficientBalance,
): WalletTransactionRow {
  if (movement.amountMinor === 0n) throw new ApiError(400, 'BAD_REQUEST', 'a wallet movement cannot be zero');
  const balanceAfter = wallet.balance + movement.amountMinor;
  if (balanceAfter < 0n) throw shortfall(wallet, movement.amountMinor);
  if (balanceAfter > MAX_BALANCE_MINOR) {
    throw new ApiError(400, 'BAD_REQUEST', `amountMinor would take the balance above ${MAX_BALANCE_MINOR}`);
  }
  // Never earlier than the row before it, even if this process's clock is behind another's.
  const at = now > wallet.updated_at ? now : wallet.updated_at;
  const seq = wallet.last_seq + 1n;
  const id = newId('wtx_', at);
  Object.assign(wallet, { balance: balanceAfter, last_seq: seq, updated_at: at });
  return {
    id,
    team_id: wallet.team_id,
    seq,
    type: movement.type,
    amount: movement.amountMinor,
    balance_after: balanceAfter,
    currency: wallet.currency,
    reference: movement.reference ?? id,
    receipt_reference: movement.receiptReference ?? null,
    description: movement.description ?? null,
    reverses_id: movement.reversesId ?? null,
    created_at: at,
  };
}

/** Appends one row to a wallet locked by the caller; refuses (nothing written) below zero or above the cap. */
export async function append(
  tx: Tx,
  wallet: WalletRow,
  movement: Movement,
  now: Date,
  shortfall: Shortfall = insufficientBalance,
): Promise<WalletTransactionRow> {
  const before = { ...wallet };
  const row = planMovement(wallet, movement, now, shortfall);
  try {
    await writeMovements(tx, [row]);
  } catch (error) {
    // The caller may catch and go on: the wallet in memory stays as the database has it.
    Object.assign(wallet, before);
    throw error;
  }
  return row;
}

/**
 * Gives back one earlier row (the opposite amount, `reverses_id` pointing at it). At most once per
 * row: returns `{ row, created: false }` with the earlier give-back when there is one.
 */
export async function giveBack(
  tx: Tx,
  wallet: WalletRow,
  original: WalletTransactionRow,
  movement: Omit<Movement, 'amountMinor' | 'reversesId'>,
  now: Date,
  shortfall?: Shortfall,
): Promise<{ row: WalletTransactionRow; created: boolean }> {
  const earlier = await findReversalOf(tx, wallet.team_id, original.id);
  if (earlier) return { row: earlier, created: false };
  const row = await append(
    tx,
    wallet,
    { ...movement, amountMinor: -original.amount, reversesId: original.id },
    now,
    shortfall,
  );
  return { row, created: true };
}
