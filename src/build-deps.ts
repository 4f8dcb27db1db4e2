// Builds everything the processes share (deps.ts), once. Tests build the same thing with their own
// database and clock. The log transports' outboxes belong to emails/ and sms/, so they are wired here,
// above the areas, and deps.ts stays free of them.
import { createFileBlobStore, createS3BlobStore } from './adapters/blob-store/index.ts';
import { ReplicaReads } from './db/replica.ts';
import { registerReplicaMetrics } from './db/replica-metrics.ts';
import { createCachingDnsResolver } from './adapters/dns-cache.ts';
import { createDnsResolver } from './adapters/dns.ts';
import { createMailTransport, type MailTransportDeps } from './adapters/mail-transport/index.ts';
import { createSmsProvider } from './adapters/sms-provider/index.ts';
import type { Config } from './config.ts';
import { connectDatabase } from './db/connect.ts';
import type { Deps, DepsOverrides } from './deps.ts';
import { databaseDestinationLedger } from './destinations/index.ts';
import { outboxRecorder } from './emails/outbox.ts';
import { AUTH_CHANNEL } from './platform/auth/queries.ts';
import { PrincipalCache } from './platform/auth/principal-cache.ts';
import { systemClock } from './platform/clock.ts';
import { Secrets } from './platform/crypto.ts';
import { createLogger } from './platform/logger.ts';
import { boundHeapGrowth } from './platform/heap-growth.ts';
import { createMetricsRegistry } from './platform/metrics.ts';
import { setPlanLimits } from './platform/plans.ts';
import { RateLimiter, createCounterStore } from './platform/rate-limit/index.ts';
import { reportedCircuit } from './platform/rate-limit/circuit-reporting.ts';
import { QueueAnnouncer } from './queue/index.ts';
import { africasTalkingToken, smsOutboxKeeper } from './sms/index.ts';

export { createLogger };

/** `config.secret` must be resolved (see secrets-file.ts) before this is called. */
export async function buildDeps(config: Config, overrides: DepsOverrides = {}): Promise<Deps> {
  boundHeapGrowth();
  if (config.secret === null) throw new Error('HERALD_SECRET is not resolved');
  // The operator's plans (HERALD_PLANS_FILE) for every limit check of this process: platform/plans.ts says why here.
  setPlanLimits(config.plans);
  const logger = overrides.logger ?? createLogger(config);
  const clock = overrides.clock ?? systemClock;
  const ownsDatabase = overrides.database === undefined;
  const database =
    overrides.database ?? (await connectDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, logger }));
  const secrets = new Secrets(config.secret);
  const principals = new PrincipalCache(database.db, clock, secrets);
  // Key deletions and role changes missed while the listener was down: every cached key is dropped.
  const stopListening = await database.listen(AUTH_CHANNEL, (teamId) => principals.invalidateTeam(Number(teamId)), {
    onResume: () => principals.clear(),
  });
  const metrics = createMetricsRegistry();
  const replica =
    config.databaseReplicaUrl !== null && database.pgPool !== undefined
      ? await ReplicaReads.connect(config.databaseReplicaUrl, database.pgPool, logger)
      : null;
  if (replica) registerReplicaMetrics(metrics, replica);
  const counters = await createCounterStore(config.redisUrl, {}, reportedCircuit(logger, metrics));
  const dns = createDnsResolver({ servers: config.dnsServers });
  const transportDeps: MailTransportDeps = {
    // Direct delivery asks for the same MX and addresses over and over: answers are kept for their TTL.
    dns: config.mailTransport.kind === 'direct' ? createCachingDnsResolver(dns) : dns,
    mxPort: config.mxPort,
    mailDomain: config.mailDomain,
    record: outboxRecorder({ db: database.db, clock, secrets }),
    direct: {
      ...config.direct,
      ledger: databaseDestinationLedger(database.db, clock, logger),
      now: () => clock.now(),
      onTrouble: (destination, backoff) =>
        logger.warn({ destination, ...backoff }, 'direct delivery: destination backed off'),
      onMtaStsReport: (destination, problem) =>
        logger.warn({ destination, problem }, 'direct delivery: MTA-STS policy in testing mode not met'),
    },
  };
  const mailTransport = createMailTransport(config.mailTransport, transportDeps);
  // Campaign and journey mail goes through connections of its own, so that transactional mail never
  // waits for one that bulk mail holds (bench/RESULTS.md, campaigns). The log transport has none.
  const bulkMailTransport =
    config.mailTransport.kind === 'log' ? mailTransport : createMailTransport(config.mailTransport, transportDeps);
  const smsProvider = createSmsProvider(config, {
    keep: smsOutboxKeeper(database.db, clock),
    africasTalkingToken: africasTalkingToken(secrets),
  });
  const blobs =
    config.blobStore.kind === 's3' ? await createS3BlobStore(config.blobStore) : createFileBlobStore(config.dataDir);
  const announcer = new QueueAnnouncer(database.db, {
    onError: (error) => logger.warn({ err: error }, 'queue announcement failed'),
  });
  return {
    config,
    database,
    db: database.db,
    reads: replica?.db ?? database.db,
    clock,
    logger,
    secrets,
    rateLimiter: new RateLimiter(counters, clock),
    principals,
    metrics,
    dns,
    mailTransport,
    bulkMailTransport,
    announcer,
    smsProvider,
    blobs,
    async close() {
      await announcer.close();
      await smsProvider.close();
      await stopListening();
      await mailTransport.close();
      if (bulkMailTransport !== mailTransport) await bulkMailTransport.close();
      await counters.close();
      blobs.close();
      await replica?.close();
      if (ownsDatabase) await database.close();
    },
  };
}
