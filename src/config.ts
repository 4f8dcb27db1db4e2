// Environment -> typed configuration. Every variable of operator.md is parsed here, once, at start;
// a bad value stops start-up with a message naming the variable and what it accepts. Each group of
// variables is read by its own file under config/.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadPriceList, type PriceList } from './platform/price-list.ts';
import { ConfigError } from './config-error.ts';
import { blobStoreConfig, type BlobStoreConfig } from './config/blobs.ts';
import { dataDirOf } from './config/data-dir.ts';
import { directConfig, type DirectConfig } from './config/direct.ts';
import { inboundRetentionDays, retentionDays, riskThresholds } from './config/limits.ts';
import {
  dnsServers,
  mailDomain,
  mailTransport,
  smtpTls,
  webhookAllowCidrs,
  webhookCaFile,
  type MailTransportConfig,
} from './config/mail.ts';
import { apiPrefix, databaseReplicaUrl, databaseUrl, host, ports, publicUrl, redisUrl } from './config/network.ts';
import { httpUrl, oneOf, text, type Env } from './config/parse.ts';
import { planConfig, type PlanConfig } from './config/plans.ts';
import { instanceSecrets } from './config/secrets.ts';
import { smsConfig, type SmsConfig, type SmsProviderName } from './config/sms.ts';
import { smtpConnectionConfig, type SmtpConnectionConfig } from './config/smtp.ts';
import { submissionConfig, type SubmissionConfig } from './config/submission.ts';

export type { MailTransportConfig, SmsProviderName };
export { DEFAULT_PLANS_FILE } from './config/plans.ts';
export { ConfigError };

type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

export interface Config extends SmsConfig, PlanConfig {
  port: number;
  host: string;
  /** HERALD_METRICS_PORT: /metrics on its own listener (and no longer on PORT); null serves it on PORT. */
  metricsPort: number | null;
  apiPrefix: string;
  databaseUrl: string | null;
  /** DATABASE_REPLICA_URL: a streaming replica for reads that tolerate lag (src/db/replica.ts). */
  databaseReplicaUrl: string | null;
  dataDir: string;
  /** HERALD_BLOB_STORE and HERALD_S3_*: the data dir's files, or S3-compatible storage. */
  blobStore: BlobStoreConfig;
  /** Master secret; null until resolved (generated into the data dir when embedded). */
  secret: string | null;
  /** Admin API bearer token; null means "generate when embedded, admin API off with DATABASE_URL". */
  adminToken: string | null;
  publicUrl: string;
  mailTransport: MailTransportConfig;
  mxPort: number;
  /** HERALD_DIRECT_*: the `direct` transport's limits, addresses and CAs. */
  direct: DirectConfig;
  smtpPort: number;
  /** HERALD_SMTP_TLS_CERT / _KEY: PEM file paths (both or neither); STARTTLS is offered only with them. */
  smtpTlsCert: string | null;
  smtpTlsKey: string | null;
  /** HERALD_SMTP_MAX_CLIENTS, per-address and per-network limits, greeting and idle timeouts. */
  smtpConnections: SmtpConnectionConfig;
  /** HERALD_SUBMISSION_PORT, HERALD_SUBMISSIONS_PORT, HERALD_TLS_CERT_FILE / _KEY_FILE: SMTP submission (src/submission/). */
  submission: SubmissionConfig;
  mailDomain: string;
  dnsServers: string[];
  webhookAllowCidrs: string[];
  webhookCaFile: string | null;
  /** HERALD_PRICES_FILE, resolved; `prices` is its content, checked at start. */
  pricesFile: string;
  prices: PriceList;
  /** timeoutMs: how long a card-processor call may take before the read answers 503 (not an env variable). */
  /** webhookSecret: HERALD_STRIPE_WEBHOOK_SECRET; unset, POST /hooks/stripe answers 404. */
  stripe: { secretKey: string | null; apiUrl: string; timeoutMs: number; webhookSecret: string | null };
  /** Contract, Limits: a billing read longer than 10 seconds answers 422 (fixed; tests shorten it). */
  billingReadTimeoutMs: number;
  /** HERALD_RISK_MEDIUM_AT / HERALD_RISK_HIGH_AT: score thresholds of the MEDIUM and HIGH levels. */
  risk: { mediumAt: number; highAt: number };
  redisUrl: string | null;
  logLevel: LogLevel;
  /** HERALD_INBOUND_RETENTION_DAYS: how long raw inbound originals (and their attachments) are kept. */
  inboundRetentionDays: number;
  /**
   * HERALD_RETENTION_BODIES_DAYS / HERALD_RETENTION_EVENTS_DAYS: how long emails' bodies, and emails'
   * metadata and events, SMS and codes, are kept (src/retention/).
   */
  retention: { bodiesDays: number; eventsDays: number };
  /** HERALD_RSPAMD_URL: rspamd's HTTP API (`http://host:11333`); null: Herald's built-in spam checks. */
  rspamdUrl: string | null;
}

/** The price list shipped with Herald, found from this file so the working directory does not matter. */
export const DEFAULT_PRICES_FILE = fileURLToPath(new URL('../config/prices.json', import.meta.url));

const logLevels: readonly LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

/** Reads every variable, in the order operator.md lists them; the first bad one throws ConfigError. */
export function loadConfig(env: Env = process.env): Config {
  const listen = ports(env);
  const listenHost = host(env);
  const dbUrl = databaseUrl(env);
  const secrets = instanceSecrets(env, dbUrl !== null);
  const tls = smtpTls(env);
  const sms = smsConfig(env);
  const pricesFile = path.resolve(text(env, 'HERALD_PRICES_FILE') ?? DEFAULT_PRICES_FILE);
  return {
    ...listen,
    host: listenHost,
    apiPrefix: apiPrefix(env),
    databaseUrl: dbUrl,
    databaseReplicaUrl: databaseReplicaUrl(env, dbUrl),
    dataDir: dataDirOf(env),
    blobStore: blobStoreConfig(env),
    ...secrets,
    publicUrl: publicUrl(env, listenHost, listen.port),
    mailTransport: mailTransport(env),
    direct: directConfig(env),
    smtpTlsCert: tls.cert,
    smtpTlsKey: tls.key,
    smtpConnections: smtpConnectionConfig(env),
    submission: submissionConfig(env),
    mailDomain: mailDomain(env),
    dnsServers: dnsServers(env),
    webhookAllowCidrs: webhookAllowCidrs(env),
    webhookCaFile: webhookCaFile(env),
    ...sms,
    pricesFile,
    prices: loadPriceList(pricesFile),
    ...planConfig(env, dbUrl === null),
    stripe: {
      secretKey: text(env, 'HERALD_STRIPE_SECRET_KEY'),
      apiUrl: httpUrl(env, 'HERALD_STRIPE_API_URL', 'https://api.stripe.com')!,
      timeoutMs: 8_000,
      webhookSecret: text(env, 'HERALD_STRIPE_WEBHOOK_SECRET'),
    },
    billingReadTimeoutMs: 10_000,
    risk: riskThresholds(env),
    redisUrl: redisUrl(env),
    logLevel: oneOf(env, 'LOG_LEVEL', logLevels, 'info'),
    inboundRetentionDays: inboundRetentionDays(env),
    retention: retentionDays(env),
    rspamdUrl: httpUrl(env, 'HERALD_RSPAMD_URL', null),
  };
}

/** Loads configuration or exits with the message naming the bad variable. */
export function loadConfigOrExit(): Config {
  try {
    return loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`herald: ${error.message}\n`);
      process.exit(2);
    }
    throw error;
  }
}
