// Builds everything the processes share, once: database, clock, logger, secrets, rate limiter,
// principal cache, metrics, blob store. Tests build the same thing with their own database and clock.
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import { createFileBlobStore, type BlobStore } from './adapters/blob-store/index.ts';
import { createDnsResolver, type DnsResolver } from './adapters/dns.ts';
import { createMailTransport, type MailTransport } from './adapters/mail-transport/index.ts';
import type { Config } from './config.ts';
import { connectDatabase, type DbHandle } from './db/connect.ts';
import type { Database } from './db/schema.ts';
import { outboxRecorder } from './emails/outbox.ts';
import { AUTH_CHANNEL } from './platform/auth/auth-events.ts';
import { PrincipalCache } from './platform/auth/principal-cache.ts';
import { systemClock, type Clock } from './platform/clock.ts';
import { Secrets } from './platform/crypto.ts';
import { createLogger } from './platform/logger.ts';
import { createMetricsRegistry } from './platform/metrics.ts';
import { RateLimiter, createCounterStore } from './platform/rate-limit/index.ts';
import { reportedCircuit } from './platform/rate-limit/circuit-reporting.ts';
import { QueueAnnouncer } from './queue/index.ts';
import { createSmsProvider, type SmsProvider } from './adapters/sms-provider/index.ts';
import { africasTalkingToken, smsOutboxKeeper } from './sms/index.ts';

export { createLogger };

export interface Deps {
  config: Config;
  database: DbHandle;
  db: Kysely<Database>;
  clock: Clock;
  logger: Logger;
  secrets: Secrets;
  rateLimiter: RateLimiter;
  principals: PrincipalCache;
  metrics: Registry;
  /** Every DNS lookup the service makes, through HERALD_DNS_SERVERS when set. */
  dns: DnsResolver;
  /** HERALD_MAIL_TRANSPORT, built once; the log transport records into the outbox table. */
  mailTransport: MailTransport;
  /** Wakes queue runners after commit (coalesced NOTIFY); see QueueAnnouncer. */
  announcer: QueueAnnouncer;
  /** HERALD_SMS_PROVIDER, built once; the log provider keeps messages in the SMS outbox table. */
  smsProvider: SmsProvider;
  /** Received mail's originals and attachments, in HERALD_DATA_DIR/blobs. */
  blobs: BlobStore;
  close(): Promise<void>;
}

export interface DepsOverrides {
  database?: DbHandle;
  clock?: Clock;
  logger?: Logger;
}

/** `config.secret` must be resolved (see secrets-file.ts) before this is called. */
export async function buildDeps(config: Config, overrides: DepsOverrides = {}): Promise<Deps> {
  if (config.secret === null) throw new Error('HERALD_SECRET is not resolved');
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
  const counters = createCounterStore(config.redisUrl, {}, reportedCircuit(logger, metrics));
  const dns = createDnsResolver({ servers: config.dnsServers });
  const mailTransport = createMailTransport(config.mailTransport, {
    dns,
    mxPort: config.mxPort,
    mailDomain: config.mailDomain,
    record: outboxRecorder({ db: database.db, clock, secrets }),
  });
  const smsProvider = createSmsProvider(config, {
    keep: smsOutboxKeeper(database.db, clock),
    africasTalkingToken: africasTalkingToken(secrets),
  });
  const announcer = new QueueAnnouncer(database.db, {
    onError: (error) => logger.warn({ err: error }, 'queue announcement failed'),
  });
  return {
    config,
    database,
    db: database.db,
    clock,
    logger,
    secrets,
    rateLimiter: new RateLimiter(counters, clock),
    principals,
    metrics,
    dns,
    mailTransport,
    announcer,
    smsProvider,
    blobs: createFileBlobStore(config.dataDir),
    async close() {
      await announcer.close();
      await smsProvider.close();
      await stopListening();
      await mailTransport.close();
      await counters.close();
      if (ownsDatabase) await database.close();
    },
  };
}
