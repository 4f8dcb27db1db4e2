// The API's store path: concurrent sends of a process share one transaction (a Coalescer batch), so
// a hot wallet is locked once per batch instead of once per message. In it: the batch's wallets
// locked in team order, the month's parts read, each message priced and charged in arrival order
// (a message the wallet cannot cover answers 402 alone; later ones still go), then the ledger rows in
// one statement and the messages with their parts in another.
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { Coalescer } from '../platform/coalescer.ts';
import { ApiError } from '../platform/errors.ts';
import type { PriceList } from '../platform/price-list.ts';
import { lockWallets, planCharge, writeMovements } from '../wallet/index.ts';
import type { WalletTransactionRow } from '../db/schema-wallet.ts';
import type { PreparedSms } from './prepare.ts';
import { insertSmsMany, monthlyParts, type SmsRow } from './queries.ts';
import { chargeInput, monthOf, queuedRow, smsCharge } from './queue-sms.ts';

/** Stored, refused (402) or left to the transaction path (a team without a wallet). */
export type BatchOutcome = { row: SmsRow } | { error: ApiError } | { fallback: true };

const BATCH_MAX = 64;

async function storeBatch(db: Kysely<Database>, prices: PriceList, batch: PreparedSms[]): Promise<BatchOutcome[]> {
  const month = monthOf(batch[0]!.now);
  return db.transaction().execute(async (tx) => {
    const wallets = await lockWallets(
      tx,
      batch.map((sms) => sms.teamId),
    );
    const parts = await monthlyParts(tx, [...wallets.keys()], month);
    const charges: WalletTransactionRow[] = [];
    const rows: SmsRow[] = [];
    const outcomes = batch.map((sms): BatchOutcome => {
      const wallet = wallets.get(sms.teamId);
      if (wallet === undefined) return { fallback: true };
      const partsBefore = parts.get(sms.teamId) ?? 0;
      const chargeMinor = smsCharge(prices, sms, partsBefore);
      let charged: WalletTransactionRow | null = null;
      if (chargeMinor > 0n) {
        try {
          charged = planCharge(wallet, chargeInput(sms, chargeMinor));
        } catch (error) {
          if (error instanceof ApiError) return { error };
          throw error;
        }
        charges.push(charged);
      }
      parts.set(sms.teamId, partsBefore + sms.segments);
      const row = queuedRow(sms, chargeMinor, charged);
      rows.push(row);
      return { row };
    });
    await writeMovements(tx, charges);
    await insertSmsMany(tx, rows, month);
    return outcomes;
  });
}

/** Where a send waits for its batch. */
export interface SmsStoreBatching {
  submit(sms: PreparedSms): Promise<BatchOutcome>;
}

/**
 * One batch at a time for the process: sends that arrive meanwhile gather into the next one, so under
 * load a batch holds many teams' messages and one transaction serves them all. (Spreading teams over
 * parallel lanes was measured slower: smaller batches, more transactions, more CPU per send.)
 */
export function smsStoreBatching(db: Kysely<Database>, prices: PriceList): SmsStoreBatching {
  const coalescer = new Coalescer<PreparedSms, BatchOutcome>((batch) => storeBatch(db, prices, batch), {
    maxBatch: BATCH_MAX,
    // One month per batch: the parts read and written are that month's.
    canJoin: (batch, sms) => batch.length === 0 || monthOf(batch[0]!.now) === monthOf(sms.now),
  });
  return { submit: (sms) => coalescer.submit(sms) };
}
