// The long-running parts a command composes: the HTTP API and the background worker.
import Fastify from 'fastify';
import { buildApp } from './app.ts';
import { listenOrExplain, mainListener } from './listen-ports.ts';
import { registerHealth } from './platform/health.ts';
import { recordHttpMetrics, serveMetrics } from './platform/metrics.ts';
import { localServerUrl, recordRunningServer } from './platform/running-server.ts';
import type { Runtime } from './runtime.ts';
import { createWorkerRunner } from './worker.ts';
import { parseReturnPath } from './emails/index.ts';
import { readSmtpTls, startSmtpListener } from './mx/smtp-listener.ts';
import { createInboundSpool } from './mx/spool.ts';
import { createSpoolProcessor } from './mx/spool-processor.ts';
import { INBOX_CHANNEL, inboxAddressOf, inboxIntakeOf, LiveInboxAddresses } from './inboxes/index.ts';
import { startSubmission, submissionBanner } from './submission/index.ts';

export interface Service {
  stop(): Promise<void>;
}

/**
 * How long each part may take to stop before it is given up. Work still in hand is left to its lease
 * (the spool row, the queue row), so a hung handler or parse cannot keep a stopping process alive.
 */
export const STOP_BOUNDS_MS = {
  api: 15_000,
  // The queue runner waits 30 s for running batches, then hands their rows back.
  workers: 40_000,
  // The listener gives messages in progress 10 s, then what it spooled gets this long to be recorded.
  smtpListener: 15_000,
  smtpBacklog: 15_000,
} as const;

/** The whole stop, database closed included; past it the process exits 1 (main.ts). */
export const SHUTDOWN_LIMIT_MS = 120_000;

/** Runs a part's stop, or gives up on it after `ms` (logged); never throws. */
export async function stopWithin(runtime: Runtime, part: string, ms: number, stop: () => Promise<void>): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const bound = new Promise<'timed out'>((resolve) => {
    timer = setTimeout(() => resolve('timed out'), ms);
  });
  try {
    const result = await Promise.race([stop().then(() => 'stopped' as const), bound]);
    if (result === 'timed out')
      runtime.deps.logger.warn({ part, boundMs: ms }, 'stop gave up waiting; work in hand is left to its lease');
  } catch (error) {
    runtime.deps.logger.error({ part, err: error }, 'stop failed');
  } finally {
    clearTimeout(timer);
  }
}

/** The public and admin APIs on PORT (and /metrics on HERALD_METRICS_PORT when set). */
export async function serveApi(runtime: Runtime): Promise<Service> {
  const { config } = runtime.deps;
  const app = await buildApp(runtime.deps);
  await listenOrExplain(config.host, mainListener(config), () => app.listen({ port: config.port, host: config.host }));
  const metrics = await serveMetricsPort(runtime);
  // Embedded, this process alone holds the data directory: `herald admin` finds it there.
  const forget =
    config.databaseUrl === null
      ? recordRunningServer(config.dataDir, localServerUrl(config.host, config.port))
      : () => {};
  return {
    async stop() {
      forget();
      await metrics.stop();
      await stopWithin(runtime, 'api', STOP_BOUNDS_MS.api, () => app.close());
    },
  };
}

/** HERALD_METRICS_PORT: /metrics alone on its own listener, for operators who keep it off the public one. */
async function serveMetricsPort(runtime: Runtime): Promise<Service> {
  const { config, metrics } = runtime.deps;
  if (config.metricsPort === null) return { stop: async () => {} };
  const port = config.metricsPort;
  const http = Fastify({ logger: false });
  serveMetrics(http, metrics);
  await listenOrExplain(config.host, { variable: 'HERALD_METRICS_PORT', port }, () =>
    http.listen({ port, host: config.host }),
  );
  return { stop: () => http.close() };
}

/** Workers inside `herald start`: the API process already serves health and metrics. */
export async function runWorkers(runtime: Runtime): Promise<Service> {
  const runner = createWorkerRunner(runtime.deps);
  await runner.start();
  return {
    async stop() {
      await stopWithin(runtime, 'workers', STOP_BOUNDS_MS.workers, async () => {
        await runner.stop();
      });
    },
  };
}

/**
 * A part that runs without the API (`herald worker`, `herald smtp`): the part plus /healthz, /readyz
 * and /metrics on PORT (/metrics on HERALD_METRICS_PORT when set). The part is stopped first, then
 * the HTTP servers.
 */
async function withHealthServer(runtime: Runtime, startPart: () => Promise<Service>): Promise<Service> {
  const { config, metrics, db, database } = runtime.deps;
  const http = Fastify({ logger: false });
  recordHttpMetrics(http, metrics);
  if (config.metricsPort === null) serveMetrics(http, metrics);
  registerHealth(http, db, database);
  await listenOrExplain(config.host, mainListener(config), () => http.listen({ port: config.port, host: config.host }));
  const metricsPort = await serveMetricsPort(runtime);
  const part = await startPart();
  return {
    async stop() {
      await part.stop();
      await metricsPort.stop();
      await stopWithin(runtime, 'health', STOP_BOUNDS_MS.api, () => http.close());
    },
  };
}

/** `herald worker` alone. */
export async function serveWorker(runtime: Runtime): Promise<Service> {
  return withHealthServer(runtime, () => runWorkers(runtime));
}

/**
 * The inbound SMTP listener (HERALD_SMTP_PORT; 0 = off): accepts mail only for addresses Herald owns
 * (signed bounce return paths, team inboxes) and answers 250 once the message is committed to the spool (messages
 * that arrive together share one INSERT), so a message the database did not take is retried by the
 * sender. Then this process turns each delivery report or complaint into events and suppressions,
 * and stores each message for an inbox, itself (spool-processor.ts); what it does not finish, the worker's inbound-messages queue takes.
 */
export async function startInboundSmtp(runtime: Runtime): Promise<InboundSmtpService> {
  const { deps } = runtime;
  const { config } = deps;
  if (config.smtpPort === 0) return { stop: async () => {}, drained: async () => {} };
  const spool = createInboundSpool({ db: deps.db, clock: deps.clock });
  const processor = createSpoolProcessor({
    db: deps.db,
    secrets: deps.secrets,
    clock: deps.clock,
    mailDomain: config.mailDomain,
    metrics: deps.metrics,
    logger: deps.logger,
    inbox: inboxIntakeOf({
      db: deps.db,
      clock: deps.clock,
      dns: deps.dns,
      blobs: deps.blobs,
      logger: deps.logger,
      config,
    }),
  });
  const logger = deps.logger.child({ part: 'smtp' });
  const inboxes = new LiveInboxAddresses(deps.db, deps.clock);
  const stopListening = await deps.database.listen(INBOX_CHANNEL, (address) => inboxes.forget(address), {
    onResume: () => inboxes.clear(),
  });
  const smtpListener = { variable: 'HERALD_SMTP_PORT', port: config.smtpPort } as const;
  const listener = await listenOrExplain(config.host, smtpListener, () =>
    startSmtpListener({
      port: config.smtpPort,
      host: config.host,
      tls: readSmtpTls(config.smtpTlsCert, config.smtpTlsKey),
      limits: config.smtpConnections,
      hostname: config.mailDomain,
      logger: deps.logger,
      metrics: deps.metrics,
      // A signed return path, or a live inbox's address (any case, any +tag).
      acceptsRecipient: async (address) => {
        if (parseReturnPath(address, deps.secrets) !== null) return true;
        const inbox = inboxAddressOf(address);
        return inbox !== null && (await inboxes.has(inbox));
      },
      onMessage: async (message) => {
        const id = await spool.store(message);
        processor.take({
          id,
          mailFrom: message.mailFrom,
          rcptTo: message.rcptTo,
          raw: message.raw,
          remoteAddress: message.remoteAddress,
        });
      },
    }),
  ).catch(async (error: unknown) => {
    // No LISTEN left behind by a listener that could not start (a port taken).
    await stopListening();
    throw error;
  });
  logger.info({ port: listener.port }, 'inbound SMTP listening');
  return {
    // Messages still waiting to be processed are finished first; a process killed instead leaves
    // them to the queue.
    // A backlog that does not drain in time (a hung batch) stays in the spool for the queue.
    stop: async () => {
      await stopWithin(runtime, 'smtp listener', STOP_BOUNDS_MS.smtpListener, () => listener.stop());
      await stopWithin(runtime, 'inbound backlog', STOP_BOUNDS_MS.smtpBacklog, () => processor.drained());
      await stopWithin(runtime, 'inbox listen', STOP_BOUNDS_MS.api, () => stopListening());
    },
    drained: () => processor.drained(),
  };
}

export interface InboundSmtpService extends Service {
  /** Resolves once every message received so far has been processed (or left to the queue). */
  drained(): Promise<void>;
}

/**
 * SMTP submission (HERALD_SUBMISSION_PORT with STARTTLS, HERALD_SUBMISSIONS_PORT over TLS; both 0 =
 * off): applications that speak only SMTP send with an API key as the password, each message stored
 * as the API would store it (src/submission/README.md). Its ports and certificate fingerprint go to
 * stdout with the start's other lines.
 */
export async function startSubmissionService(runtime: Runtime): Promise<Service> {
  const { deps } = runtime;
  const { submission } = deps.config;
  const started = await startSubmission(deps).catch((error: unknown) => {
    const port = (error as { port?: unknown }).port;
    const listener =
      port !== undefined && port === submission.tlsPort
        ? ({ variable: 'HERALD_SUBMISSIONS_PORT', port: submission.tlsPort } as const)
        : ({ variable: 'HERALD_SUBMISSION_PORT', port: submission.port } as const);
    return listenOrExplain(deps.config.host, listener, () => Promise.reject(error));
  });
  if (started === null) return { stop: async () => {} };
  process.stdout.write(submissionBanner(started));
  return {
    stop: () => stopWithin(runtime, 'submission listener', STOP_BOUNDS_MS.smtpListener, () => started.listener.stop()),
  };
}

/** `herald smtp` alone: the inbound listener and submission. */
export async function serveSmtp(runtime: Runtime): Promise<Service> {
  return withHealthServer(runtime, async () => {
    const inbound = await startInboundSmtp(runtime);
    const submission = await startSubmissionService(runtime).catch(async (error: unknown) => {
      await inbound.stop();
      throw error;
    });
    return {
      async stop() {
        await submission.stop();
        await inbound.stop();
      },
    };
  });
}
