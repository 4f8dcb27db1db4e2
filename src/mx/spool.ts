// The inbound spool: where a received message becomes Herald's responsibility. The listener's 250 to
// DATA waits for the commit of the message's row in inbound_messages, and nothing else: what the
// message reports is worked out afterwards, as an MTA queues mail before delivering it. The client's
// wait is one INSERT, whatever the message asks of the database later.
//
// Afterwards the listener acts on the message itself, from memory (spool-processor.ts). The row is
// the way back if it does not: it is due for the inbound-messages queue (inbound-queue.ts) only
// SPOOL_HANDOFF_MS after it was received, and whichever takes it deletes it in the transaction that
// records it (record-spooled.ts).
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { Coalescer } from '../platform/coalescer.ts';
import type { Clock } from '../platform/clock.ts';
import type { InboundMessage } from './receive-message.ts';
import { insertSpooledMessages } from './spool-queries.ts';

/**
 * How long the listener that spooled a message has to act on it before the inbound-messages queue
 * may take it. It acts within milliseconds; this only bounds how long a message waits when the
 * listener's process died with it, or could not take it (its backlog was full, or it failed there).
 */
export const SPOOL_HANDOFF_MS = 30_000;

export interface InboundSpool {
  /** Resolves with the message's row id once the row committed; then the listener may answer 250. */
  store(message: InboundMessage): Promise<string>;
}

interface SpoolDeps {
  db: Kysely<Database>;
  clock: Clock;
}

/** Messages per INSERT, and their bytes. */
const MAX_BATCH = 64;
const MAX_BATCH_BYTES = 4 * 1024 * 1024;

/**
 * Messages that arrive while an INSERT is in the database go together in the next one (group
 * commit): one round trip and one fsync for all of them. One row of parameters per message, the
 * bytes as a binary parameter (no base64 or JSON to encode and decode): a statement text per batch
 * size, each prepared once per connection, and batches hold one to four messages under load. Rows
 * are inserted in arrival order, so their ids follow it: the queue applies a batch in id order.
 */
export function createInboundSpool(deps: SpoolDeps): InboundSpool {
  const inserts = new Coalescer<InboundMessage, string>((messages) => insertMessages(deps, messages), {
    maxBatch: MAX_BATCH,
    // Two INSERTs in flight: a sender's 250 need not wait for a whole other batch to commit.
    concurrency: 2,
    // A batch of large messages is cut short; a single message of any accepted size still goes alone.
    canJoin: (batch, message) =>
      batch.length === 0 || batch.reduce((bytes, m) => bytes + m.raw.length, message.raw.length) <= MAX_BATCH_BYTES,
  });
  return { store: (message) => inserts.submit(message) };
}

async function insertMessages(deps: SpoolDeps, messages: InboundMessage[]): Promise<string[]> {
  const now = deps.clock.now();
  return insertSpooledMessages(deps.db, messages, now, new Date(now.getTime() + SPOOL_HANDOFF_MS));
}
