// Sender IDs a team may send SMS from, per destination country. The operator adds them already
// approved; a fee, when there is one, is charged to the wallet at once (402 when it cannot pay),
// and deleting one can give that fee back.
import type { Kysely } from 'kysely';
import { isUniqueViolation } from '../db/errors.ts';
import type { Database } from '../db/schema.ts';
import type { SenderIdRow } from '../db/schema-wallet.ts';
import { conflict, notFound } from '../platform/errors.ts';
import { newId } from '../platform/ids.ts';
import { giveBack } from './ledger.ts';
import { charge } from './movements.ts';
import { findTransaction, insertSenderId, lockWallet, markSenderIdDeleted } from './queries.ts';

export async function createSenderId(
  db: Kysely<Database>,
  teamId: number,
  input: { senderId: string; country: string; feeMinor: bigint },
  now: Date,
): Promise<SenderIdRow> {
  const id = newId('sid_', now);
  try {
    return await db.transaction().execute(async (tx) => {
      const fee =
        input.feeMinor > 0n
          ? await charge(tx, teamId, {
              amountMinor: input.feeMinor,
              type: 'SENDER_ID_FEE',
              reference: id,
              description: `Sender ID ${input.senderId} (${input.country})`,
              at: now,
            })
          : null;
      return insertSenderId(tx, teamId, {
        id,
        senderId: input.senderId,
        country: input.country,
        feeTransactionId: fee?.id ?? null,
        at: now,
      });
    });
  } catch (error) {
    if (isUniqueViolation(error, 'sender_ids_active')) {
      throw conflict(`senderId ${input.senderId} already exists for ${input.country}`);
    }
    throw error;
  }
}

/** Marks the sender ID deleted; with `refund`, gives its fee back to the wallet in the same transaction. */
export async function deleteSenderId(
  db: Kysely<Database>,
  teamId: number,
  id: string,
  refund: boolean,
  now: Date,
): Promise<void> {
  await db.transaction().execute(async (tx) => {
    const row = await markSenderIdDeleted(tx, teamId, id, now);
    if (!row) throw notFound('sender ID');
    if (!refund || row.fee_transaction_id === null) return;
    const wallet = await lockWallet(tx, teamId);
    const fee = await findTransaction(tx, teamId, row.fee_transaction_id);
    if (!wallet || !fee) throw new Error(`sender ID ${id}: its fee ${row.fee_transaction_id} is missing`);
    await giveBack(
      tx,
      wallet,
      fee,
      {
        type: 'SENDER_ID_REFUND',
        reference: fee.reference,
        description: `Refund: ${fee.description ?? 'sender ID fee'}`,
      },
      now,
    );
  });
}
