// Starting submission for a process (`herald start`, `herald smtp`): its certificate, its lockout,
// its own group commit of sends (as the API process has: concurrent messages share a transaction),
// then the listener. services.ts calls this and prints the banner lines.
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import type { Database } from '../db/schema.ts';
import { sendBatching, type SendBatching } from '../emails/index.ts';
import type { PrincipalCache } from '../platform/auth/principal-cache.ts';
import type { Clock } from '../platform/clock.ts';
import type { Secrets } from '../platform/crypto.ts';
import type { RateLimiter } from '../platform/rate-limit/index.ts';
import type { QueueAnnouncer } from '../queue/index.ts';
import type { SubmissionConfig } from '../config/submission.ts';
import { AuthLockout } from './auth-lockout.ts';
import { startSubmissionListener, type SubmissionListener } from './listener.ts';
import { submissionTls, type SubmissionTls } from './tls-certificate.ts';

export interface SubmissionStartDeps {
  db: Kysely<Database>;
  clock: Clock;
  secrets: Secrets;
  principals: PrincipalCache;
  rateLimiter: RateLimiter;
  announcer: QueueAnnouncer;
  logger: Logger;
  metrics: Registry;
  config: {
    host: string;
    mailDomain: string;
    databaseUrl: string | null;
    dataDir: string;
    submission: SubmissionConfig;
  };
}

export interface StartedSubmission {
  listener: SubmissionListener;
  tls: SubmissionTls | null;
}

/**
 * Submission's shared send transactions: one at a time, the next waiting up to 4 ms for the messages
 * that were in flight. A listener's callers are its connections, each waiting for its 250 before
 * sending its next message, and each 250 waits for a commit: a few connections in step fill one
 * commit together instead of alternating half-full ones (bench/RESULTS.md, SMTP submission).
 */
export function submissionBatching(db: Kysely<Database>): SendBatching {
  return sendBatching(db, { concurrency: 1, gatherMs: 4 });
}

/** null when both ports are 0 (off). */
export async function startSubmission(deps: SubmissionStartDeps): Promise<StartedSubmission | null> {
  const { config } = deps;
  const { submission } = config;
  if (submission.port === 0 && submission.tlsPort === 0) return null;
  const tls = submissionTls(
    {
      tlsCertFile: submission.tlsCertFile,
      tlsKeyFile: submission.tlsKeyFile,
      databaseUrl: config.databaseUrl,
      dataDir: config.dataDir,
      mailDomain: config.mailDomain,
    },
    deps.clock.now(),
  );
  if (tls === null)
    deps.logger.warn(
      { port: submission.port },
      'SMTP submission without TLS (no HERALD_TLS_CERT_FILE): AUTH is taken only from loopback',
    );
  const listener = await startSubmissionListener(
    {
      db: deps.db,
      clock: deps.clock,
      announcer: deps.announcer,
      batching: submissionBatching(deps.db),
      config: { mailDomain: config.mailDomain },
      principals: deps.principals,
      rateLimiter: deps.rateLimiter,
      lockout: new AuthLockout({ secrets: deps.secrets, clock: deps.clock, rateLimiter: deps.rateLimiter }),
      logger: deps.logger,
      metrics: deps.metrics,
    },
    {
      host: config.host,
      port: submission.port === 0 ? null : submission.port,
      tlsPort: submission.tlsPort === 0 ? null : submission.tlsPort,
      tls,
      hostname: config.mailDomain,
    },
  );
  return { listener, tls };
}

/** The lines the start prints: where to point an application, and the certificate's fingerprint. */
export function submissionBanner({ listener, tls }: StartedSubmission): string {
  const ports = [
    ...(listener.port === null
      ? []
      : [`${listener.port} (STARTTLS${tls === null ? ' not offered: no certificate' : ''})`]),
    ...(listener.tlsPort === null ? [] : [`${listener.tlsPort} (TLS)`]),
  ];
  const lines = [
    `  SMTP submission: port ${ports.join(', ')}; user herald, password a sending or full access API key.`,
  ];
  if (tls?.selfSigned)
    lines.push(`  Its certificate is self-signed (${tls.certFile}); SHA-256 fingerprint:`, `    ${tls.fingerprint}`);
  else if (tls !== null) lines.push(`  Certificate SHA-256 fingerprint: ${tls.fingerprint}`);
  return `${lines.join('\n')}\n`;
}
