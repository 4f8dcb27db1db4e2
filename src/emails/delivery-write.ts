// Writing what one delivery attempt decided: the email's status and its events in one transaction,
// only while this worker still holds the row's lease and the email is still waiting to be sent. The
// second condition is where the status precedence table (status-precedence.ts) lets a delivery
// attempt decide: nothing here moves an email that already left the queue. The statements are in
// delivery-queries.ts.
import type { Kysely, Transaction } from 'kysely';
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
  /** Addresses the receiver refused for good during the session (hard bounces): suppressed with the events. */
  hardBounced?: string[];
  /** Deferred: the email waits for its next attempt (it reads DELIVERY_DELAYED meanwhile); unset keeps it. */
  delayed?: boolean;
  /** The attempt only waited for a backed-off destination: it does not count against the email. */
  uncounted?: boolean;
}

/**
 * How the answers of the delivery worker's SMTP session are classified, and hard bounces suppressed:
 * the rules of bounce reports, implemented by feedback (sessionBounces) and handed in by worker.ts.
 */
export interface DeliveryBounces {
  classify(response: string): { bounceType: 'hard' | 'soft'; category: string; reason: string; status: string | null };
  suppress(
    tx: Transaction<Database>,
    refused: { teamId: number; emailId: string; addresses: string[] },
    now: Date,
  ): Promise<void>;
}

/**
 * False when the lease passed to another worker or the email left the queue meanwhile. One
 * statement (status and events together), so one round trip and its own transaction; with hard
 * bounces, a transaction that also suppresses their addresses (`bounces`).
 */
export async function recordAttempt(
  db: Kysely<Database>,
  email: EmailOfEvent,
  leaseUntil: Date,
  now: Date,
  record: AttemptRecord,
  bounces: DeliveryBounces,
): Promise<boolean> {
  const events = record.events.map((e) => ({
    status: e.status,
    data: e.data ?? null,
    ...emailEventCall(email, e.status, e.data, now),
  }));
  const outcome = {
    status: record.status,
    messageId: record.messageId,
    events,
    delayed: record.delayed ?? null,
    uncounted: record.uncounted ?? false,
  };
  const write = (handle: Kysely<Database>) =>
    writeAttemptOutcome(handle, email.team_id, email.id, leaseUntil, now, outcome);
  const addresses = record.hardBounced ?? [];
  // The relay may have accepted the message already: a lost connection must not make it go twice.
  const updated = await retryWhileConnectionLost(() =>
    addresses.length === 0
      ? write(db)
      : db.transaction().execute(async (tx) => {
          const written = await write(tx);
          if (written > 0) await bounces.suppress(tx, { teamId: email.team_id, emailId: email.id, addresses }, now);
          return written;
        }),
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
