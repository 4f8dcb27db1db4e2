// Sender IDs a team may send SMS from, per destination country. The operator adds them already
// approved; a fee, when there is one, is charged to the wallet at once (402 when it cannot pay),
// and deleting one can give that fee back.
import type { Kysely } from 'kysely';
import { isUniqueViolation } from '../db/errors.ts';
import type { Database } from '../db/schema.ts';
import type { SenderIdRow } from '../db/schema-wallet.ts';
import { conflict, notFound } from '../platform/errors.ts';
import { newId } from '../platform/ids.ts';
import { findTransaction, giveBack, lockWallet } from './ledger.ts';
import { charge } from './movements.ts';

export async function listSenderIds(db: Kysely<Database>, teamId: number, country?: string): Promise<SenderIdRow[]> {
  let query = db.selectFrom('sender_ids').selectAll().where('team_id', '=', teamId).where('deleted_at', 'is', null);
  if (country !== undefined) query = query.where('country', '=', country);
  return query.orderBy('created_at').orderBy('id').execute();
}

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
      return tx
        .insertInto('sender_ids')
        .values({
          id,
          team_id: teamId,
          sender_id: input.senderId,
          country: input.country,
          fee_transaction_id: fee?.id ?? null,
          created_at: now,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
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
    const row = await tx
      .updateTable('sender_ids')
      .set({ deleted_at: now })
      .where('team_id', '=', teamId)
      .where('id', '=', id)
      .where('deleted_at', 'is', null)
      .returningAll()
      .executeTakeFirst();
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
