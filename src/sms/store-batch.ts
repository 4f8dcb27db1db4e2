// The API's group commit: concurrent sends of a process share one transaction (a Coalescer batch),
// so under load many requests share one commit. queueSmsSends, the one door, stores all their
// messages at once; a refusal (402) writes nothing of its send and answers its own caller, and a
// batch that fails in the database is run again one send at a time by the Coalescer.
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { Principal } from '../platform/auth/api-keys.ts';
import { Coalescer } from '../platform/coalescer.ts';
import type { ApiError } from '../platform/errors.ts';
import type { PreparedSms } from './prepare.ts';
import type { SmsRow } from './queries.ts';
import { queueSmsSends, type QueueSmsOptions } from './queue-sms.ts';

/** One caller's send. */
export interface BatchedSms {
  principal: Pick<Principal, 'teamId'>;
  sms: PreparedSms;
}

/** Stored, or refused (402) for this caller alone. */
export type BatchOutcome = { row: SmsRow } | { error: ApiError };

const BATCH_MAX = 64;

async function storeBatch(db: Kysely<Database>, options: QueueSmsOptions, batch: BatchedSms[]) {
  const sends = batch.map(({ principal, sms }) => ({ principal, messages: [sms] }));
  const outcomes = await db.transaction().execute((tx) => queueSmsSends(tx, sends, options));
  return outcomes.map((o): BatchOutcome => ('refused' in o ? { error: o.refused } : { row: o.rows[0]! }));
}

/** Where a send waits for its batch. */
export interface SmsStoreBatching {
  submit(item: BatchedSms): Promise<BatchOutcome>;
}

/**
 * One batch at a time for the process: sends that arrive meanwhile gather into the next one, so under
 * load a batch holds many teams' messages and one transaction serves them all.
 */
export function smsStoreBatching(db: Kysely<Database>, options: QueueSmsOptions): SmsStoreBatching {
  const coalescer = new Coalescer<BatchedSms, BatchOutcome>((batch) => storeBatch(db, options, batch), {
    maxBatch: BATCH_MAX,
  });
  return { submit: (item) => coalescer.submit(item) };
}
