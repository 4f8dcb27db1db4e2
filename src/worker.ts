// What `herald worker` runs: every area's queues and the periodic chores, on one QueueRunner.
// Areas add their queues and chores here as they are built.
import type { Deps } from './deps.ts';
import { domainCheckQueue } from './domains/check-queue.ts';
import { inboundMessagesQueue } from './inbound/inbound-queue.ts';
import { emailDeliveryQueue } from './emails/delivery.ts';
import { contactConfirmationQueue } from './contacts/double-opt-in-queue.ts';
import { smsDeliveryQueue } from './sms/index.ts';
import { purgeExpiredIdempotencyKeys } from './platform/idempotency.ts';
import { teamNoticesQueue } from './notices/notices-queue.ts';
import { defineChore, QueueRunner, registerQueueDepthGauge, type Chore, type Lane, type Queue } from './queue/index.ts';
import { purgeOldCalls } from './webhooks/dispatch-queries.ts';
import { WebhookDispatcher } from './webhooks/dispatcher.ts';
import { createWebhookAgent } from './webhooks/http-agent.ts';

const HOUR = 60 * 60 * 1000;

function workerQueues(deps: Deps): Queue[] {
  return [
    domainCheckQueue({ dns: deps.dns, mailDomain: deps.config.mailDomain }),
    emailDeliveryQueue({
      secrets: deps.secrets,
      publicUrl: deps.config.publicUrl,
      transport: deps.mailTransport,
      mailDomain: deps.config.mailDomain,
    }),
    contactConfirmationQueue({ secrets: deps.secrets, publicUrl: deps.config.publicUrl }),
    teamNoticesQueue({ transport: deps.mailTransport, mailDomain: deps.config.mailDomain }),
    smsDeliveryQueue({ provider: deps.smsProvider }),
    // What `herald smtp` spooled: bounces and complaints.
    inboundMessagesQueue({
      db: deps.db,
      secrets: deps.secrets,
      clock: deps.clock,
      mailDomain: deps.config.mailDomain,
      metrics: deps.metrics,
    }),
  ];
}

function workerLanes(deps: Deps): Lane[] {
  // The webhook HTTPS client: every connection goes to an address checked at connect time.
  const agent = createWebhookAgent({
    dns: deps.dns,
    allowCidrs: deps.config.webhookAllowCidrs,
    caFile: deps.config.webhookCaFile,
  });
  return [
    new WebhookDispatcher({
      db: deps.db,
      clock: deps.clock,
      secrets: deps.secrets,
      transport: { dispatcher: agent.agent, checkHost: (host) => agent.checkHost(host), close: () => agent.close() },
      logger: deps.logger.child({ part: 'webhooks' }),
      metrics: deps.metrics,
    }),
  ];
}

function workerChores(_deps: Deps): Chore[] {
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
    defineChore({
      name: 'purge-webhook-calls',
      everyMs: HOUR,
      run: async ({ db, clock, logger }) => {
        const purged = await purgeOldCalls(db, clock.now());
        if (purged > 0) logger.info({ purged }, 'webhook calls older than 30 days purged');
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
    lanes: workerLanes(deps),
    chores: workerChores(deps),
    clock: deps.clock,
    metrics: deps.metrics,
    logger: deps.logger.child({ part: 'worker' }),
  });
}
