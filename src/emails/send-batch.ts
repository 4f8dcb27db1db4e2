// Group commit for the send routes: concurrent sends of a process share one transaction (a
// Coalescer batch), and in it each caller's send goes through queueEmails, the one door, with its
// own rules checked for it alone. A caller's ApiError (bad input, unverified domain, over the plan's
// limit) is its own answer: queueEmails throws them before it writes, so the others still commit.
// Any other error fails the batch, and the coalescer then runs each caller alone in a transaction
// of its own. Callers go in team order, so two batches in flight lock the teams' usage rows in the
// same order and cannot deadlock.
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { Principal } from '../platform/auth/api-keys.ts';
import { Coalescer } from '../platform/coalescer.ts';
import { ApiError } from '../platform/errors.ts';
import { queueEmailsOf, type QueuedEmails } from './queue-emails.ts';
import type { SendEmailInput } from './schemas.ts';

/** The caller's own row written beside its emails, in the same transaction (through its own area's queries). */
export type Alongside = (tx: Transaction<Database>, emailIds: string[]) => Promise<void>;

export interface SendJob {
  principal: Principal;
  inputs: SendEmailInput[];
  /** Field names in errors prefixed with `[i].`. */
  batch: boolean;
  now: Date;
  mailDomain?: string;
  alongside?: Alongside;
}

type Outcome = { sent: QueuedEmails } | { refused: ApiError };

/** Largest number of callers in one transaction. */
const BATCH_MAX = 64;

/** queueEmails for one caller, leaving the delivery queue to be announced after commit. */
const queueJob = (tx: Transaction<Database>, job: SendJob) =>
  queueEmailsOf(tx, job.principal, job.inputs, {
    now: job.now,
    batch: job.batch,
    wake: 'caller',
    ...(job.mailDomain === undefined ? {} : { mailDomain: job.mailDomain }),
  });

/** One caller's send and its row, in `tx` (a transaction of its own, without batching). */
export async function storeSend(tx: Transaction<Database>, job: SendJob): Promise<QueuedEmails> {
  const sent = await queueJob(tx, job);
  await job.alongside?.(tx, sent.ids);
  return sent;
}

async function storeBatch(db: Kysely<Database>, jobs: SendJob[]): Promise<Outcome[]> {
  const order = jobs.map((_, i) => i).sort((a, b) => jobs[a]!.principal.teamId - jobs[b]!.principal.teamId);
  return db.transaction().execute(async (tx) => {
    const outcomes: Outcome[] = new Array<Outcome>(jobs.length);
    for (const i of order) {
      const job = jobs[i]!;
      let sent: QueuedEmails;
      try {
        sent = await queueJob(tx, job);
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
        outcomes[i] = { refused: error };
        continue;
      }
      await job.alongside?.(tx, sent.ids);
      outcomes[i] = { sent };
    }
    return outcomes;
  });
}

/** Where a send waits for its batch. */
export interface SendBatching {
  submit(job: SendJob): Promise<QueuedEmails>;
}

export function sendBatching(db: Kysely<Database>): SendBatching {
  // Two batches in flight: the next one reads while the one before commits.
  const coalescer = new Coalescer<SendJob, Outcome>((jobs) => storeBatch(db, jobs), {
    maxBatch: BATCH_MAX,
    concurrency: 2,
  });
  return {
    submit: async (job) => {
      const outcome = await coalescer.submit(job);
      if ('refused' in outcome) throw outcome.refused;
      return outcome.sent;
    },
  };
}
