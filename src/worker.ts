// What `herald worker` runs: every area's queues and the periodic chores, on one QueueRunner.
// Areas add their queues and chores here as they are built.
import type { Deps } from './deps.ts';
import { domainCheckQueue } from './domains/check-queue.ts';
import { emailDeliveryQueue } from './emails/delivery.ts';
import { contactConfirmationQueue } from './contacts/double-opt-in-queue.ts';
import { purgeExpiredIdempotencyKeys } from './platform/idempotency.ts';
import { defineChore, QueueRunner, registerQueueDepthGauge, type Chore, type Queue } from './queue/index.ts';

const HOUR = 60 * 60 * 1000;

export function workerQueues(deps: Deps): Queue[] {
  return [
    domainCheckQueue({ dns: deps.dns, mailDomain: deps.config.mailDomain }),
    emailDeliveryQueue({ secrets: deps.secrets, publicUrl: deps.config.publicUrl, transport: deps.mailTransport, mailDomain: deps.config.mailDomain }),
    contactConfirmationQueue({ secrets: deps.secrets, publicUrl: deps.config.publicUrl, announcer: deps.announcer }),
  ];
}

export function workerChores(_deps: Deps): Chore[] {
  return [
    // domains: no chore; rechecks are due rows of the domain-checks queue (next_check_at)
    defineChore({
      name: 'purge-idempotency-keys',
      everyMs: HOUR,
      run: async ({ db, clock, logger }) => {
        const purged = await purgeExpiredIdempotencyKeys(db, clock.now());
        if (purged > 0) logger.info({ purged }, 'expired idempotency keys purged');
      },
    }),
  ];
}

export function createWorkerRunner(deps: Deps): QueueRunner {
  const queues = workerQueues(deps);
  registerQueueDepthGauge(deps.metrics, deps.db, queues, deps.clock);
  return new QueueRunner({
    database: deps.database,
    queues,
    chores: workerChores(deps),
    clock: deps.clock,
    metrics: deps.metrics,
    logger: deps.logger.child({ part: 'worker' }),
  });
}
