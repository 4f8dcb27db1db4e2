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

/** The wallets of these teams, locked in team id order (so two callers never wait on each other in a circle). */
export async function lockWallets(tx: Tx, teamIds: readonly number[]): Promise<Map<number, WalletRow>> {
  if (teamIds.length === 0) return new Map();
  const rows = await tx
    .selectFrom('wallets')
    .selectAll()
    .where('team_id', 'in', [...new Set(teamIds)])
    .orderBy('team_id')
    .forUpdate()
    .execute();
  return new Map(rows.map((row) => [row.team_id, row]));
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

/**
 * Writes planned rows (of one or many wallets, each wallet's in seq order) in one statement: the
 * rows, and each wallet moved to its last row's balance.
 */
export async function writeMovements(tx: Tx, rows: readonly WalletTransactionRow[]): Promise<void> {
  if (rows.length === 0) return;
  const json = JSON.stringify(rows, (_key, value: unknown) => (typeof value === 'bigint' ? value.toString() : value));
  await sql`
    WITH planned AS (
      SELECT * FROM jsonb_to_recordset(${json}::jsonb) AS r (
        id text, team_id integer, seq bigint, type text, amount bigint, balance_after bigint, currency text,
        reference text, receipt_reference text, description text, reverses_id text, created_at timestamptz)
    ),
    appended AS (
      INSERT INTO wallet_transactions (id, team_id, seq, type, amount, balance_after, currency, reference,
        receipt_reference, description, reverses_id, created_at)
      SELECT id, team_id, seq, type, amount, balance_after, currency, reference, receipt_reference, description,
        reverses_id, created_at
      FROM planned
    ),
    latest AS (SELECT DISTINCT ON (team_id) * FROM planned ORDER BY team_id, seq DESC)
    UPDATE wallets w SET balance = latest.balance_after, last_seq = latest.seq, updated_at = latest.created_at
    FROM latest WHERE w.team_id = latest.team_id`.execute(tx);
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
