// Every statement of the wallet (0011_wallet.sql), team id first: the wallet row and its lock, the
// append-only ledger (wallet_transactions) and sender IDs. The rules (balance checks, give-backs,
// fees) are in ledger.ts, movements.ts and sender-ids.ts; these only read and write rows.
import { sql, type Kysely, type RawBuilder, type Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { SenderIdRow, WalletRow, WalletTransactionRow, WalletTransactionType } from '../db/schema-wallet.ts';

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

/** An empty wallet in the team's currency at this moment; nothing when the team has one already. */
export async function openWallet(tx: Tx, teamId: number, now: Date): Promise<void> {
  await sql`INSERT INTO wallets (team_id, currency, created_at, updated_at)
    SELECT id, currency, ${now}, ${now} FROM teams WHERE id = ${teamId}
    ON CONFLICT (team_id) DO NOTHING`.execute(tx);
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

/** The row that gave `id` back (a reversal, release or refund), if any: each row is given back once. */
export async function findReversalOf(tx: Tx, teamId: number, id: string): Promise<WalletTransactionRow | undefined> {
  return tx
    .selectFrom('wallet_transactions')
    .selectAll()
    .where('team_id', '=', teamId)
    .where('reverses_id', '=', id)
    .executeTakeFirst();
}

/**
 * Writes planned rows (of one or many wallets, each wallet's in seq order) in one statement: the
 * rows, and each wallet moved to its last row's balance. Every row carries its team.
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

/**
 * The team's sender IDs for a country, oldest first, as a JSON array (null: none): a fragment for a
 * read of another area that needs them beside its own rows (the SMS send's context).
 */
export function senderIdsJson(teamId: RawBuilder<unknown>, country: RawBuilder<unknown>): RawBuilder<string[] | null> {
  return sql<string[] | null>`(SELECT json_agg(s.sender_id ORDER BY s.created_at, s.id) FROM sender_ids s
    WHERE s.team_id = ${teamId} AND s.country = ${country} AND s.deleted_at IS NULL)`;
}

/** The team's sender IDs, every country, oldest first (the admin API's list). */
export async function listSenderIds(db: Kysely<Database>, teamId: number): Promise<SenderIdRow[]> {
  return db
    .selectFrom('sender_ids')
    .selectAll()
    .where('team_id', '=', teamId)
    .where('deleted_at', 'is', null)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

export async function insertSenderId(
  tx: Tx,
  teamId: number,
  row: { id: string; senderId: string; country: string; feeTransactionId: string | null; at: Date },
): Promise<SenderIdRow> {
  return tx
    .insertInto('sender_ids')
    .values({
      id: row.id,
      team_id: teamId,
      sender_id: row.senderId,
      country: row.country,
      fee_transaction_id: row.feeTransactionId,
      created_at: row.at,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Marks an active sender ID deleted; undefined when the team has no such active one. */
export async function markSenderIdDeleted(
  tx: Tx,
  teamId: number,
  id: string,
  now: Date,
): Promise<SenderIdRow | undefined> {
  return tx
    .updateTable('sender_ids')
    .set({ deleted_at: now })
    .where('team_id', '=', teamId)
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .returningAll()
    .executeTakeFirst();
}

/** The ledger filters of a page (billing's reads); afterSeq is the seq of the previous page's last row. */
export interface LedgerFilter {
  type?: WalletTransactionType;
  from?: Date;
  to?: Date;
  afterSeq?: number;
}

/**
 * Up to `limit` rows of the team's ledger, newest first. Pages walk the index (team_id, created_at
 * DESC, seq DESC); created_at never goes backwards along seq, so the cursor row's (created_at, seq)
 * bounds the next page.
 */
export async function ledgerPage(
  db: Kysely<Database>,
  teamId: number,
  filter: LedgerFilter,
  limit: number,
): Promise<WalletTransactionRow[]> {
  const result = await sql<WalletTransactionRow>`
    SELECT t.* FROM wallet_transactions t
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
  return result.rows.map(normaliseTransaction);
}

/** The team's row with receipt `reference`; undefined for another team's. */
export async function findByReceipt(
  db: Kysely<Database>,
  teamId: number,
  reference: string,
): Promise<WalletTransactionRow | undefined> {
  const result = await sql<WalletTransactionRow>`
    SELECT * FROM wallet_transactions WHERE team_id = ${teamId} AND receipt_reference = ${reference}`.execute(db);
  const row = result.rows[0];
  return row === undefined ? undefined : normaliseTransaction(row);
}

/** The currency of the team's wallet, null without one. */
export async function walletCurrency(db: Kysely<Database>, teamId: number): Promise<string | null> {
  const result = await sql<{ currency: string }>`SELECT currency FROM wallets WHERE team_id = ${teamId}`.execute(db);
  return result.rows[0]?.currency ?? null;
}

/** The currency of the team's wallet (int expression), NULL without one: a fragment to embed. */
export function walletCurrencyOf(teamId: RawBuilder<unknown>): RawBuilder<string | null> {
  return sql<string | null>`(SELECT w.currency FROM wallets AS w WHERE w.team_id = ${teamId})`;
}

/** Raw SQL rows: bigint columns arrive as strings from pg, numbers or bigints from PGlite. */
function normaliseTransaction(row: WalletTransactionRow): WalletTransactionRow {
  return {
    ...row,
    seq: BigInt(row.seq),
    amount: BigInt(row.amount),
    balance_after: BigInt(row.balance_after),
    created_at: row.created_at instanceof Date ? row.created_at : new Date(row.created_at),
  };
}
