// What the processes share, built once by build-deps.ts: database, clock, logger, secrets, rate
// limiter, principal cache, metrics, DNS, transports, blob store. Types only, so an area that still
// takes the whole bag imports nothing that imports areas back.
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import type { BlobStore } from './adapters/blob-store/index.ts';
import type { DnsResolver } from './adapters/dns.ts';
import type { MailTransport } from './adapters/mail-transport/index.ts';
import type { SmsProvider } from './adapters/sms-provider/index.ts';
import type { Config } from './config.ts';
import type { DbHandle } from './db/connect.ts';
import type { Database } from './db/schema.ts';
import type { Clock } from './platform/clock.ts';
import type { Secrets } from './platform/crypto.ts';
import type { PrincipalCache } from './platform/auth/principal-cache.ts';
import type { RateLimiter } from './platform/rate-limit/index.ts';
import type { QueueAnnouncer } from './queue/index.ts';

export interface Deps {
  config: Config;
  database: DbHandle;
  db: Kysely<Database>;
  /** Reads that tolerate lag: the replica's (DATABASE_REPLICA_URL) while it is near enough, else `db`. */
  reads: Kysely<Database>;
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
  /** Campaign and journey mail's: the same kind, with connections of its own (the log transport itself). */
  bulkMailTransport: MailTransport;
  /** Wakes queue runners after commit (coalesced NOTIFY); see QueueAnnouncer. */
  announcer: QueueAnnouncer;
  /** HERALD_SMS_PROVIDER, built once; the log provider keeps messages in the SMS outbox table. */
  smsProvider: SmsProvider;
  /** Received mail's originals and attachments: HERALD_DATA_DIR/blobs or S3 (HERALD_BLOB_STORE). */
  blobs: BlobStore;
  close(): Promise<void>;
}

export interface DepsOverrides {
  database?: DbHandle;
  clock?: Clock;
  logger?: Logger;
}
