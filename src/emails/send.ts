// POST /v1/emails and /v1/emails/batch, and one-time codes by email: each send goes through
// queueEmails (queue-emails.ts), the one door, in one transaction with the caller's own row
// (`alongside`: a completed Idempotency-Key, a verification). In the API process concurrent sends
// share that transaction (send-batch.ts); elsewhere each takes one of its own. The delivery queue
// is announced after commit (deps.announcer), never by a NOTIFY inside this hot write.
import type { Kysely } from 'kysely';
import type { Database, EmailSource } from '../db/schema.ts';
import type { Principal } from '../platform/auth/api-keys.ts';
import type { Clock } from '../platform/clock.ts';
import type { QueueAnnouncer } from '../queue/index.ts';
import { EMAIL_DELIVERY_QUEUE } from './queue-emails.ts';
import { storeSend, type Alongside, type SendBatching, type SendJob } from './send-batch.ts';
import type { SendEmailInput } from './schemas.ts';

export { EMAIL_DELIVERY_QUEUE };
export { sendBatching, type Alongside, type SendBatching, type SendBatchingOptions } from './send-batch.ts';

export interface SendDeps {
  db: Kysely<Database>;
  clock: Clock;
  announcer: QueueAnnouncer;
  /** The API process's shared send transactions (sendBatching); without it each send takes its own. */
  batching?: SendBatching;
  /** HERALD_MAIL_DOMAIN: the built-in domain (builtin-sender.ts). */
  config?: { mailDomain: string };
}

/**
 * Sends each input, with the caller's `alongside` row in the same transaction; returns their ids in
 * order. In a batch, field names are prefixed with `[i].`. `source`: where the send came from
 * ('api' unless SMTP submission says 'smtp').
 */
export async function sendEmails(
  deps: SendDeps,
  principal: Principal,
  inputs: SendEmailInput[],
  batch: boolean,
  alongside?: Alongside,
  source?: EmailSource,
): Promise<string[]> {
  const job: SendJob = {
    principal,
    inputs,
    batch,
    now: deps.clock.now(),
    ...(deps.config ? { mailDomain: deps.config.mailDomain } : {}),
    ...(alongside ? { alongside } : {}),
    ...(source ? { source } : {}),
  };
  const { ids, queued } = deps.batching
    ? await deps.batching.submit(job)
    : await deps.db.transaction().execute((tx) => storeSend(tx, job));
  if (queued) deps.announcer.announce(EMAIL_DELIVERY_QUEUE);
  return ids;
}
