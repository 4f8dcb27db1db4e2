// The statements of reconciling unconfirmed hand-offs with the provider (reconcile.ts) and of giving a
// message left waiting for its provider's id the id a report names (reports.ts). Like
// sms_provider_ids itself, these are keyed by the message or the provider's id, not by team.
import type { Transaction } from 'kysely';
import type { Db } from '../db/handle.ts';
import type { Database } from '../db/schema.ts';

/** When each queued message was queued: what a provider lookup searches from (reconcile.ts). */
export async function queuedSince(db: Db, smsIds: readonly string[]): Promise<Map<string, Date>> {
  if (smsIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('sms_deliveries')
    .select(['sms_id', 'created_at'])
    .where('sms_id', 'in', [...smsIds])
    .execute();
  return new Map(rows.map((row) => [row.sms_id, row.created_at]));
}

/** Which of a provider's ids a message already has: a lookup's match is never given to two messages. */
export async function knownProviderIds(db: Db, provider: string, ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .selectFrom('sms_provider_ids')
    .select('provider_message_id')
    .where('provider_message_id', 'in', [...ids])
    .where('provider', '=', provider)
    .execute();
  return new Set(rows.map((row) => row.provider_message_id));
}

/**
 * Gives a message left waiting for its provider's id (reconcile.ts `awaitingIdOf`) the id a report
 * names, so that the provider's later reports find it directly.
 */
export async function adoptProviderId(
  tx: Transaction<Database>,
  provider: string,
  smsId: string,
  awaitingId: string,
  providerMessageId: string,
): Promise<void> {
  await tx
    .updateTable('sms_provider_ids')
    .set({ provider_message_id: providerMessageId })
    .where('provider_message_id', '=', awaitingId)
    .where('provider', '=', provider)
    .where('sms_id', '=', smsId)
    .execute();
}
