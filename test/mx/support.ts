// Shared by the inbound tests: a harness with a spool, and the worker's part, the inbound-messages
// queue, run on what is spooled.
import { afterAll, beforeAll } from 'vitest';
import { INBOUND_QUEUE, inboundMessagesQueue } from '../../src/mx/inbound-queue.ts';
import { createInboundSpool, SPOOL_HANDOFF_MS, type InboundSpool } from '../../src/mx/spool.ts';
import { QueueRunner } from '../../src/queue/index.ts';
import { startEmailHarness, type EmailHarness } from '../emails/support.ts';
import { MAIL_DOMAIN } from '../feedback/support.ts';

/** The file's email harness and a spool on its database, made before its tests and closed after. */
export function inboundTestBed(): { readonly h: EmailHarness; readonly spool: InboundSpool } {
  const bed = {} as { h: EmailHarness; spool: InboundSpool };
  beforeAll(async () => {
    bed.h = await startEmailHarness();
    bed.spool = createInboundSpool({ db: bed.h.t.deps.db, clock: bed.h.t.clock });
  });
  afterAll(async () => bed.h?.close());
  return bed;
}

/**
 * A runner with the inbound queue alone, started once the spooled messages are due (no listener
 * took them): its first claim takes them all. Resolves once it has recorded everything due.
 */
export async function startInboundQueue(h: EmailHarness): Promise<QueueRunner> {
  const { deps } = h.t;
  h.t.clock.advance(SPOOL_HANDOFF_MS);
  const runner = new QueueRunner({
    database: deps.database,
    queues: [
      inboundMessagesQueue({
        db: deps.db,
        secrets: deps.secrets,
        clock: h.t.clock,
        mailDomain: MAIL_DOMAIN,
        metrics: deps.metrics,
      }),
    ],
    clock: h.t.clock,
    pollMs: 60_000,
  });
  await runner.start();
  await runner.idle(INBOUND_QUEUE);
  return runner;
}
