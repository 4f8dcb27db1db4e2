// The inbound spool: where a received message becomes Herald's responsibility. The listener's 250 to
// DATA waits for the commit of the message's row in inbound_messages, and nothing else: what the
// message reports is worked out afterwards by the inbound-messages queue (inbound-queue.ts), in
// batches, as an MTA queues mail before delivering it. The client's wait is one INSERT, whatever
// the message asks of the database later, and a burst of reports is recorded many to a transaction.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { Coalescer } from '../platform/coalescer.ts';
import type { Clock } from '../platform/clock.ts';
import type { QueueAnnouncer } from '../queue/index.ts';
import { INBOUND_QUEUE } from './inbound-queue.ts';
import type { InboundMessage } from './smtp-listener.ts';

export interface InboundSpool {
  /** Resolves once the message's row committed; then the listener may answer 250. */
  store(message: InboundMessage): Promise<void>;
}

export interface SpoolDeps {
  db: Kysely<Database>;
  clock: Clock;
  announcer: QueueAnnouncer;
}

/** Messages per INSERT, and their bytes: the batch travels as one JSON parameter (base64 bodies). */
const MAX_BATCH = 64;
const MAX_BATCH_BYTES = 4 * 1024 * 1024;

/**
 * Messages that arrive while an INSERT is in the database go together in the next one (group
 * commit): one round trip and one fsync for all of them. The batch is one jsonb parameter, so the
 * statement's text is the same for every batch size (prepared once per connection). Ids follow the
 * order of arrival (ORDER BY ordinality): the queue applies a batch in id order.
 */
export function createInboundSpool(deps: SpoolDeps): InboundSpool {
  const inserts = new Coalescer<InboundMessage, void>((messages) => insertMessages(deps, messages), {
    maxBatch: MAX_BATCH,
    concurrency: 2,
    // A batch of large messages is cut short; a single message of any accepted size still goes alone.
    canJoin: (batch, message) => batch.length === 0 || batch.reduce((bytes, m) => bytes + m.raw.length, message.raw.length) <= MAX_BATCH_BYTES,
  });
  return { store: (message) => inserts.submit(message) };
}

async function insertMessages(deps: SpoolDeps, messages: InboundMessage[]): Promise<void[]> {
  const now = deps.clock.now();
  const rows = messages.map((m) => ({ mail_from: m.mailFrom, rcpt_to: m.rcptTo, remote_address: m.remoteAddress, secure: m.secure, raw: m.raw.toString('base64') }));
  await sql`
    INSERT INTO inbound_messages (received_at, mail_from, rcpt_to, remote_address, secure, raw, due_at)
    SELECT ${now}, m.message->>'mail_from', ARRAY(SELECT jsonb_array_elements_text(m.message->'rcpt_to')), m.message->>'remote_address',
      (m.message->>'secure')::boolean, decode(m.message->>'raw', 'base64'), ${now}
    FROM jsonb_array_elements(${JSON.stringify(rows)}::jsonb) WITH ORDINALITY AS m(message, n)
    ORDER BY m.n`.execute(deps.db);
  // After the commit, and batched: NOTIFY inside the INSERT would serialise every commit of the cluster.
  deps.announcer.announce(INBOUND_QUEUE);
  return messages.map(() => undefined);
}
