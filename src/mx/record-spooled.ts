// Acting on spooled messages, for both ways a message is taken: by the listener that spooled it,
// right after its 250 (spool-processor.ts), and by the inbound-messages queue, for whatever a
// listener did not finish (inbound-queue.ts). A batch's reports are recorded through
// applyFeedbackBatch, its messages for team inboxes stored through the inbox intake, and its rows
// deleted, all in the same transaction, and only if the rows are still the taker's: unclaimed for
// the listener, under the queue's own lease for the queue. So a message is acted on exactly once
// whichever takes it, and a taker that lost the race writes nothing.
import type { Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';
import { applyFeedbackBatch, type FeedbackDeps, type FeedbackOutcome } from '../feedback/index.ts';
import type { InboxIntake } from '../inboxes/index.ts';
import { deleteSpooledRows, markSpooledFailed, type SpoolTaker } from './spool-queries.ts';

/** What recording a batch needs: the feedback path's deps and, where inboxes are served, the intake. */
export interface RecordSpooledDeps extends FeedbackDeps {
  /** Absent: every recipient is taken for a return path (tests and benches of the feedback path). */
  inbox?: InboxIntake;
}

export interface RecordedBatch {
  /** One per message that had a recipient other than an inbox, in order. */
  feedback: FeedbackOutcome[];
  /** Messages stored for inboxes (one per inbox a message reached). */
  inboxMessages: number;
  /**
   * Messages left out because the intake could not read them: their rows stay. A permanent one was
   * marked failed (kept as unreadable) in the batch's transaction; the others are for a retry.
   */
  unreadable: { id: string; error: string; permanent: boolean }[];
}

export interface SpooledMessage {
  /** inbound_messages.id, as text (a bigint). */
  id: string;
  mailFrom: string;
  rcptTo: string[];
  raw: Buffer;
  /** The client's address (spam checks); known to the listener and kept in the spool row. */
  remoteAddress?: string;
  receivedAt?: Date;
}

/** Some of the rows were no longer the taker's when it came to delete them: the other way has them. */
export class SpoolRowsTakenError extends Error {
  override name = 'SpoolRowsTakenError';
}

/**
 * Records the messages' reports and inbox messages in ONE transaction, in the order given (arrival
 * order: status precedence depends on it), and deletes their rows in it. A recipient that is a live
 * inbox's gets the message in that inbox; the others (bounce return paths) go to the feedback path.
 * Throws (and writes nothing) when a database statement fails or some row is no longer the taker's
 * (SpoolRowsTakenError).
 */
export async function recordSpooled(
  deps: RecordSpooledDeps,
  messages: readonly SpooledMessage[],
  taker: SpoolTaker,
): Promise<RecordedBatch> {
  const inbox = deps.inbox;
  const prepared = inbox === undefined ? null : await inbox.prepare(messages);
  const unreadable = (prepared?.unreadable ?? []).map((u) => ({ ...u, id: messages[u.index]!.id }));
  const left = new Set(unreadable.map((u) => u.id));
  const forFeedback = messages
    .map((m, i) => ({ m, rcptTo: prepared === null ? m.rcptTo : prepared.otherRecipients[i]! }))
    .filter(({ m, rcptTo }) => rcptTo.length > 0 && !left.has(m.id));
  const feedback = await applyFeedbackBatch(
    deps,
    forFeedback.map(({ m, rcptTo }) => ({ envelope: { mailFrom: m.mailFrom, rcptTo }, raw: m.raw })),
    async (tx) => {
      if (prepared !== null) await inbox!.store(tx, prepared);
      await deleteSpooled(
        tx,
        messages.filter((m) => !left.has(m.id)).map((m) => m.id),
        taker,
      );
      await keepUnreadable(
        tx,
        unreadable.filter((u) => u.permanent),
        taker,
        deps.clock.now(),
      );
    },
  );
  return { feedback, inboxMessages: prepared?.deliveries.length ?? 0, unreadable };
}

/**
 * Messages no parser can read are kept, with their raw original, as failed (`herald admin inbound
 * failed`): the sender was answered 250, so they are the operator's to look at, never dropped, and
 * no retry can help them.
 */
async function keepUnreadable(
  tx: Transaction<Database>,
  items: { id: string; error: string }[],
  taker: SpoolTaker,
  now: Date,
): Promise<void> {
  if (items.length === 0) return;
  const failed = items.map((item) => ({ id: item.id, error: `unreadable: ${item.error}` }));
  await markSpooledFailed(tx, failed, taker, now);
}

/**
 * In the recording transaction: the rows go with the reports they carried, if they are still the
 * taker's. The transaction then commits without waiting for its WAL flush (synchronous_commit off,
 * for it alone): what it records is derived from the rows it deletes, so a crash that loses it loses
 * both, and the messages are processed again. The flush the spool's INSERTs wait for is not shared
 * with these larger transactions. A webhook sent for an event lost that way is sent again on replay
 * (webhooks are at least once).
 */
async function deleteSpooled(tx: Transaction<Database>, ids: string[], taker: SpoolTaker): Promise<void> {
  if (ids.length === 0) return;
  if ((await deleteSpooledRows(tx, ids, taker)) !== ids.length)
    throw new SpoolRowsTakenError('some inbound messages were taken by another worker before they were recorded');
}

/** Outcomes counted by kind, for the log line of a batch. */
export function tallyOutcomes(recorded: RecordedBatch): Record<string, number> {
  const tally: Record<string, number> = {};
  for (const outcome of recorded.feedback) tally[outcome.outcome] = (tally[outcome.outcome] ?? 0) + 1;
  if (recorded.inboxMessages > 0) tally.inbox = recorded.inboxMessages;
  if (recorded.unreadable.length > 0) tally.unreadable = recorded.unreadable.length;
  return tally;
}
