// The ledger core. Every movement locks the team's wallet row (SELECT … FOR UPDATE) inside the
// caller's transaction, checks the new balance, appends one row with its balance_after and moves the
// balance, so concurrent movements of one wallet queue on that lock and the chain stays exact.
// Movements of different teams never wait for each other.
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { WalletRow, WalletTransactionRow, WalletTransactionType } from '../db/schema-wallet.ts';
import { ApiError, notFound } from '../platform/errors.ts';
import { newId } from '../platform/ids.ts';
import { formatMinor } from '../platform/money.ts';
import { MAX_BALANCE_MINOR } from './money.ts';

export type Tx = Transaction<Database>;

export async function getWallet(db: Kysely<Database>, teamId: number): Promise<WalletRow | undefined> {
  return db.selectFrom('wallets').selectAll().where('team_id', '=', teamId).executeTakeFirst();
}

export async function lockWallet(tx: Tx, teamId: number): Promise<WalletRow | undefined> {
  return tx.selectFrom('wallets').selectAll().where('team_id', '=', teamId).forUpdate().executeTakeFirst();
}

/** The team's wallet, locked; made (empty, in the team's currency) when the team has none yet. */
export async function lockOrOpenWallet(tx: Tx, teamId: number, now: Date): Promise<WalletRow> {
  const found = await lockWallet(tx, teamId);
  if (found) return found;
  await sql`INSERT INTO wallets (team_id, currency, created_at, updated_at)
    SELECT id, currency, ${now}, ${now} FROM teams WHERE id = ${teamId}
    ON CONFLICT (team_id) DO NOTHING`.execute(tx);
  const opened = await lockWallet(tx, teamId);
  if (!opened) throw notFound('team');
  return opened;
}

export async function findTransaction(
  db: Kysely<Database>,
  teamId: number,
  id: string,
): Promise<WalletTransactionRow | undefined> {
  return db
    .selectFrom('wallet_transactions')
    .selectAll()
    .where('team_id', '=', teamId)
    .where('id', '=', id)
    .executeTakeFirst();
}

export async function findByReference(
  db: Kysely<Database>,
  teamId: number,
  type: WalletTransactionType,
  reference: string,
): Promise<WalletTransactionRow | undefined> {
  return db
    .selectFrom('wallet_transactions')
    .selectAll()
    .where('team_id', '=', teamId)
    .where('type', '=', type)
    .where('reference', '=', reference)
    .executeTakeFirst();
}

async function findReversalOf(tx: Tx, teamId: number, id: string): Promise<WalletTransactionRow | undefined> {
  return tx
    .selectFrom('wallet_transactions')
    .selectAll()
    .where('team_id', '=', teamId)
    .where('reverses_id', '=', id)
    .executeTakeFirst();
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

/** Appends one row to a wallet locked by the caller; refuses (nothing written) below zero or above the cap. */
export async function append(
  tx: Tx,
  wallet: WalletRow,
  movement: Movement,
  now: Date,
  shortfall: Shortfall = insufficientBalance,
): Promise<WalletTransactionRow> {
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
  const row = await tx
    .insertInto('wallet_transactions')
    .values({
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
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  await tx
    .updateTable('wallets')
    .set({ balance: balanceAfter, last_seq: seq, updated_at: at })
    .where('team_id', '=', wallet.team_id)
    .execute();
  // The caller may append again under the same lock.
  Object.assign(wallet, { balance: balanceAfter, last_seq: seq, updated_at: at });
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

/** The team's ledger, newest first. */
export async function listTransactions(
  db: Kysely<Database>,
  teamId: number,
  limit: number,
): Promise<WalletTransactionRow[]> {
  return db
    .selectFrom('wallet_transactions')
    .selectAll()
    .where('team_id', '=', teamId)
    .orderBy('created_at', 'desc')
    .orderBy('seq', 'desc')
    .limit(limit)
    .execute();
}
