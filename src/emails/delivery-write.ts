// Writing what one delivery attempt decided: the email's status and its events in one transaction,
// only while this worker still holds the row's lease and the email is still waiting to be sent. The
// second condition is where the status precedence table (status-precedence.ts) lets a delivery
// attempt decide: nothing here moves an email that already left the queue. The statements are in
// delivery-queries.ts.
import type { Kysely } from 'kysely';
import { retryWhileConnectionLost } from '../db/retry.ts';
import type { Database, EmailStatus } from '../db/schema.ts';
import { failLeasedEmail, writeAttemptOutcome } from './delivery-queries.ts';
import { recordEmailEventOf } from './email-events.ts';
import { emailEventCall, type EmailOfEvent } from './views.ts';

export interface AttemptRecord {
  /** The new status; null keeps it (a retry). */
  status: EmailStatus | null;
  messageId: string | null;
  events: { status: EmailStatus; data: unknown }[];
}

/**
 * False when the lease passed to another worker or the email left the queue meanwhile. One
 * statement (status and events together), so one round trip and its own transaction.
 */
export async function recordAttempt(
  db: Kysely<Database>,
  email: EmailOfEvent,
  leaseUntil: Date,
  now: Date,
  record: AttemptRecord,
): Promise<boolean> {
  const events = record.events.map((e) => ({
    status: e.status,
    data: e.data ?? null,
    ...emailEventCall(email, e.status, e.data, now),
  }));
  // The relay may have accepted the message already: a lost connection must not make it go twice.
  const updated = await retryWhileConnectionLost(() =>
    writeAttemptOutcome(db, email.team_id, email.id, leaseUntil, now, { ...record, events }),
  );
  return updated > 0;
}

/** The queue's last word on rows our own code could not handle: FAILED, with the reason, lease released. */
export async function failDeliveries(
  db: Kysely<Database>,
  items: { email: EmailOfEvent; error: string }[],
  leaseUntil: Date,
  now: Date,
): Promise<void> {
  for (const { email, error } of items) {
    await db.transaction().execute(async (tx) => {
      if (!(await failLeasedEmail(tx, email.team_id, email.id, leaseUntil, error, now))) return;
      await recordEmailEventOf(tx, email, 'FAILED', { reason: error }, now);
    });
  }
}
