// Group commit for the send routes: concurrent sends of a process share one transaction (a
// Coalescer batch), in which queueEmailSends, the one door, takes all their sends at once and checks
// each alone. A caller's ApiError (bad input, unverified domain, over the plan's limit) is its own
// answer: the others still commit. Any other error fails the batch, and the coalescer then runs each
// caller alone in a transaction of its own. The callers' own rows (a completed Idempotency-Key, a
// one-time code) are written beside their emails, one statement per kind of row for the batch.
import type { Kysely, Transaction } from 'kysely';
import type { Database, EmailSource } from '../db/schema.ts';
import type { Principal } from '../platform/auth/api-keys.ts';
import { Coalescer } from '../platform/coalescer.ts';
import { UsageRaced, type UsageLock } from './limits.ts';
import { queueEmailSends, type QueuedEmails, type SendOutcome } from './queue-emails.ts';
import type { SendEmailInput } from './schemas.ts';

/**
 * The caller's own row, written beside its emails in the same transaction through its own area's
 * queries: `row` builds it from the email ids, and `write` stores the rows of every caller of a
 * batch that share it in one statement.
 */
export interface Alongside<Row = unknown> {
  row(emailIds: string[]): Row;
  write(tx: Transaction<Database>, rows: Row[]): Promise<void>;
}

export interface SendJob {
  principal: Principal;
  inputs: SendEmailInput[];
  /** Field names in errors prefixed with `[i].`. */
  batch: boolean;
  now: Date;
  mailDomain?: string;
  alongside?: Alongside;
  /** Where the send came from: 'api' unless said (SMTP submission). */
  source?: EmailSource;
}

/** Largest number of callers in one transaction. */
const BATCH_MAX = 64;

/** The jobs' sends and their rows in `tx`, the delivery queue left to be announced after commit. */
async function storeIn(tx: Transaction<Database>, jobs: SendJob[], usageLock: UsageLock): Promise<SendOutcome[]> {
  // One moment for the batch: its callers arrived within a few milliseconds of each other.
  const now = new Date(Math.max(...jobs.map((j) => j.now.getTime())));
  const beside = async (outcomes: SendOutcome[]) => {
    const rows = new Map<Alongside['write'], unknown[]>();
    for (const [i, job] of jobs.entries()) {
      const outcome = outcomes[i]!;
      if (!job.alongside || !('sent' in outcome)) continue;
      const ofKind = rows.get(job.alongside.write) ?? [];
      ofKind.push(job.alongside.row(outcome.sent.ids));
      rows.set(job.alongside.write, ofKind);
    }
    for (const [write, ofKind] of rows) await write(tx, ofKind);
  };
  return queueEmailSends(tx, jobs, { now, wake: 'caller', usageLock, beside });
}

/** One caller's send and its row, in `tx` (a transaction of its own, without batching). */
export async function storeSend(tx: Transaction<Database>, job: SendJob): Promise<QueuedEmails> {
  const [outcome] = await storeIn(tx, [job], 'first');
  if ('refused' in outcome!) throw outcome.refused;
  return outcome!.sent;
}

/** Where a send waits for its batch. */
export interface SendBatching {
  submit(job: SendJob): Promise<QueuedEmails>;
}

/**
 * How the shared transactions are run: `concurrency` batches in flight at once, and how long a batch
 * that follows another may wait for the callers that were in flight (the Coalescer's gatherMs).
 */
export interface SendBatchingOptions {
  concurrency: number;
  gatherMs: number;
}

/**
 * The API process: many callers; the next batch reads while the one before commits, and under load
 * waits up to 10 ms to gather as many callers as the one before served (bench/RESULTS.md, email send:
 * with 2 ms the batches stayed small and out of step, and both throughput and p99 were worse).
 */
const API_BATCHING: SendBatchingOptions = { concurrency: 2, gatherMs: 10 };

export function sendBatching(db: Kysely<Database>, options: SendBatchingOptions = API_BATCHING): SendBatching {
  const run = (jobs: SendJob[], usageLock: UsageLock) => db.transaction().execute((tx) => storeIn(tx, jobs, usageLock));
  // A team's usage row is taken last, so its batches overlap until their final statement; in the
  // rare batch whose decisions a committed one changed, everything is decided again under the lock.
  const store = (jobs: SendJob[]) =>
    run(jobs, 'last').catch((error: unknown) => {
      if (error instanceof UsageRaced) return run(jobs, 'first');
      throw error;
    });
  const coalescer = new Coalescer<SendJob, SendOutcome>(store, { maxBatch: BATCH_MAX, ...options });
  return {
    submit: async (job) => {
      const outcome = await coalescer.submit(job);
      if ('refused' in outcome) throw outcome.refused;
      return outcome.sent;
    },
  };
}
