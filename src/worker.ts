// What `herald worker` runs: every area's queues and the periodic chores, on one QueueRunner.
// Areas add their queues and chores here as they are built.
import type { BlobStore } from './adapters/blob-store/index.ts';
import type { Deps } from './deps.ts';
import { domainCheckQueue } from './domains/check-queue.ts';
import { inboundMessagesQueue } from './mx/inbound-queue.ts';
import { inboxIntakeOf, removeExpiredOriginals } from './inboxes/index.ts';
import { emailDeliveryLanes } from './emails/delivery.ts';
import { signAsHerald } from './emails/index.ts';
import { retentionChore } from './retention/index.ts';
import { refreshStatistics } from './db/statistics.ts';
import { contactConfirmationQueue } from './contacts/double-opt-in-queue.ts';
import { registerContactHooks } from './contacts/index.ts';
import { smsDeliveryQueue } from './sms/index.ts';
import { purgeExpiredIdempotencyKeys } from './platform/idempotency.ts';
import { teamNoticesQueue } from './notices/notices-queue.ts';
import { journeyContactHooks, journeyEnrolmentsQueue, journeyRunsQueue } from './journeys/index.ts';
import { defineChore, QueueRunner, registerQueueDepthGauge, type Chore, type Lane, type Queue } from './queue/index.ts';
import { purgeOldCalls } from './webhooks/dispatch-queries.ts';
import { proRenewalChore } from './billing/index.ts';
import { WebhookDispatcher } from './webhooks/dispatcher.ts';
import { createWebhookAgent } from './webhooks/http-agent.ts';
import { sessionBounces } from './feedback/index.ts';
import { registerDirectDeliveryMetrics } from './destinations/index.ts';
import { campaignFanoutQueue } from './campaigns/index.ts';
import { sessionPurgeChore, signInMailQueue } from './sessions/index.ts';

const MINUTE = 60 * 1000;
const HOUR = 60 * MINUTE;

/** Herald's own mail (notices, sign-in mail), signed with the built-in domain's key. */
export const heraldMailSigner =
  (deps: Pick<Deps, 'secrets' | 'config'>) =>
  (raw: Buffer, at: Date): Promise<Buffer> =>
    signAsHerald(raw, deps.secrets, deps.config.mailDomain, at);

function workerQueues(deps: Deps): Queue[] {
  const { db, clock, dns, blobs, logger, config } = deps;
  const delivery = {
    secrets: deps.secrets,
    publicUrl: config.publicUrl,
    transport: deps.mailTransport,
    mailDomain: config.mailDomain,
    bounces: sessionBounces,
  };
  return [
    domainCheckQueue({ dns, mailDomain: config.mailDomain }),
    ...emailDeliveryLanes(delivery, deps.bulkMailTransport),
    contactConfirmationQueue({ secrets: deps.secrets, publicUrl: config.publicUrl }),
    teamNoticesQueue({ transport: deps.mailTransport, mailDomain: config.mailDomain, sign: heraldMailSigner(deps) }),
    signInMailQueue({
      transport: deps.mailTransport,
      mailDomain: config.mailDomain,
      secrets: deps.secrets,
      sign: heraldMailSigner(deps),
    }),
    smsDeliveryQueue({ provider: deps.smsProvider }),
    journeyRunsQueue(),
    journeyEnrolmentsQueue(),
    campaignFanoutQueue(),
    // What `herald smtp` spooled: bounces and complaints, and mail for team inboxes.
    inboundMessagesQueue({
      db,
      secrets: deps.secrets,
      clock,
      mailDomain: config.mailDomain,
      metrics: deps.metrics,
      inbox: inboxIntakeOf({ db, clock, dns, blobs, logger, config }),
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
      transport: agent,
      logger: deps.logger.child({ part: 'webhooks' }),
      metrics: deps.metrics,
    }),
  ];
}

function workerChores(deps: Deps): Chore[] {
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
    // Pro months and units paid from wallets (src/billing/pro-months.ts).
    proRenewalChore(deps.config.prices),
    inboundRetentionChore(deps.config.inboundRetentionDays, deps.blobs),
    // Idle sessions and old sign-ins (src/sessions/).
    sessionPurgeChore(),
    // Month partitions made ahead, expired months dropped, old bodies removed (src/retention/).
    retentionChore(deps.config.retention),
    // The planner's statistics of the tables that changed (src/db/statistics.ts).
    defineChore({
      name: 'planner-statistics',
      everyMs: MINUTE,
      run: async ({ db, logger, signal }) => {
        const analysed = await refreshStatistics(db, deps.database.driver, signal);
        if (analysed.length > 0) logger.debug({ analysed }, 'planner statistics refreshed');
      },
    }),
  ];
}

/** Raw inbound originals and their attachments, removed from the blob store after HERALD_INBOUND_RETENTION_DAYS. */
export function inboundRetentionChore(retentionDays: number, blobs: BlobStore): Chore {
  return defineChore({
    name: 'remove-inbound-originals',
    everyMs: HOUR,
    run: async ({ db, clock, logger }) => {
      const removed = await removeExpiredOriginals({ db, blobs }, clock.now(), retentionDays);
      if (removed.messages > 0 || removed.hours > 0)
        logger.info({ ...removed, retentionDays }, 'inbound originals past retention removed');
    },
  });
}

export function createWorkerRunner(deps: Deps): QueueRunner {
  // Journey runs add contacts to no book, but contacts the worker confirms or writes still reach
  // journeys. No worker job redefines or deletes a segment: segments' hooks are the API's (app.ts).
  registerContactHooks(journeyContactHooks);
  const queues = workerQueues(deps);
  registerQueueDepthGauge(deps.metrics, deps.db, queues, deps.clock);
  registerDirectDeliveryMetrics(deps.metrics, deps.mailTransport);
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
