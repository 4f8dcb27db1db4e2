// Writing what one delivery attempt decided: the email's status and its events in one transaction,
// only while this worker still holds the row's lease and the email is still waiting to be sent. The
// second condition is the status precedence rule: nothing moves an email out of a terminal status.
import type { Kysely } from 'kysely';
import type { Database, EmailStatus } from '../db/schema.ts';

/** Statuses no later event may leave. */
export const TERMINAL_STATUSES: readonly EmailStatus[] = ['BOUNCED', 'FAILED', 'CANCELLED', 'SUPPRESSED'];

/** May an email in `current` take `next` as its status? Terminal statuses are final. */
export function canMoveStatus(current: EmailStatus, next: EmailStatus): boolean {
  return current === next || !TERMINAL_STATUSES.includes(current);
}

export interface AttemptRecord {
  /** The new status; null keeps it (a retry). */
  status: EmailStatus | null;
  messageId: string | null;
  events: { status: EmailStatus; data: unknown }[];
}

/** False when the lease passed to another worker or the email left the queue meanwhile. */
export async function recordAttempt(
  db: Kysely<Database>,
  email: { team_id: number; id: string },
  leaseUntil: Date,
  now: Date,
  record: AttemptRecord,
): Promise<boolean> {
  return db.transaction().execute(async (tx) => {
    const updated = await tx
      .updateTable('emails')
      .set({ ...(record.status === null ? {} : { status: record.status }), ...(record.messageId === null ? {} : { message_id: record.messageId }), updated_at: now })
      .where('team_id', '=', email.team_id)
      .where('id', '=', email.id)
      .where('lease_until', '=', leaseUntil)
      .where('status', 'in', ['QUEUED', 'SCHEDULED'])
      .executeTakeFirst();
    if (updated.numUpdatedRows === 0n) return false;
    if (record.events.length > 0) {
      await tx
        .insertInto('email_events')
        .values(record.events.map((e) => ({ team_id: email.team_id, email_id: email.id, status: e.status, data: e.data === null ? null : JSON.stringify(e.data), created_at: now })))
        .execute();
    }
    return true;
  });
}

/** The queue's last word on rows our own code could not handle: FAILED, with the reason, lease released. */
export async function failDeliveries(db: Kysely<Database>, items: { teamId: number; id: string; error: string }[], leaseUntil: Date, now: Date): Promise<void> {
  for (const item of items) {
    await db.transaction().execute(async (tx) => {
      const updated = await tx
        .updateTable('emails')
        .set({ status: 'FAILED', lease_until: null, last_error: item.error, updated_at: now })
        .where('team_id', '=', item.teamId)
        .where('id', '=', item.id)
        .where('lease_until', '=', leaseUntil)
        .where('status', 'in', ['QUEUED', 'SCHEDULED'])
        .executeTakeFirst();
      if (updated.numUpdatedRows === 0n) return;
      await tx
        .insertInto('email_events')
        .values({ team_id: item.teamId, email_id: item.id, status: 'FAILED', data: JSON.stringify({ reason: item.error }), created_at: now })
        .execute();
    });
  }
}
