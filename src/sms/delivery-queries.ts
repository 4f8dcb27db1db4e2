// The delivery queue's own writes besides the generic claim and the outcome: a retry, with its
// hand-off state, and the removal of rows whose message is gone.
import { sql, type Transaction } from 'kysely';
import type { Db } from '../db/handle.ts';
import type { Database } from '../db/schema.ts';

export interface DeliveryRetry {
  id: string;
  retryAt: Date;
  error: string;
  /** The provider may have the message: the next claim reconciles it instead of sending it again. */
  handedOff: boolean;
}

/**
 * Reschedules messages still under our lease, with their hand-off state. recorded_attempts counts
 * the claims that ended in a retry written here: one fewer than attempts - 1 means a claim vanished.
 */
export async function retryDeliveries(db: Db, leaseUntil: Date, retries: readonly DeliveryRetry[]): Promise<void> {
  if (retries.length === 0) return;
  await sql`
    UPDATE sms_deliveries d SET next_attempt_at = r.retry_at, lease_until = NULL, last_error = r.error,
      handed_off = r.handed_off, recorded_attempts = d.recorded_attempts + 1
    FROM unnest(${retries.map((r) => r.id)}::text[], ${retries.map((r) => r.retryAt.toISOString())}::timestamptz[],
      ${retries.map((r) => r.error)}::text[], ${retries.map((r) => r.handedOff)}::boolean[])
      AS r (id, retry_at, error, handed_off)
    WHERE d.sms_id = r.id AND d.lease_until = ${leaseUntil}::timestamptz`.execute(db);
}

/**
 * Removes queue rows under our lease whose message no longer exists (deleted without
 * deleteSmsOfTeam): no outcome can be written for them, so they would otherwise be claimed forever.
 */
export async function dropOrphanedDeliveries(
  tx: Transaction<Database>,
  ids: readonly string[],
  leaseUntil: Date,
): Promise<void> {
  await sql`
    DELETE FROM sms_deliveries d WHERE d.sms_id = ANY(${ids}::text[]) AND d.lease_until = ${leaseUntil}::timestamptz
      AND NOT EXISTS (SELECT 1 FROM sms_messages m WHERE m.id = d.sms_id)`.execute(tx);
}
