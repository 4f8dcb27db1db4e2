// The long-running parts a command composes: the HTTP API and the background worker.
import Fastify from 'fastify';
import { buildApp } from './app.ts';
import { registerHealth } from './platform/health.ts';
import { registerHttpMetrics } from './platform/metrics.ts';
import type { Runtime } from './runtime.ts';
import { createWorkerRunner } from './worker.ts';
import { parseReturnPath } from './emails/index.ts';
import { readSmtpTls, startSmtpListener } from './inbound/smtp-listener.ts';
import { createInboundSpool } from './inbound/spool.ts';
import { createSpoolProcessor } from './inbound/spool-processor.ts';

export interface Service {
  stop(): Promise<void>;
}

export async function serveApi(runtime: Runtime): Promise<Service> {
  const { deps } = runtime;
  const app = await buildApp(deps);
  await app.listen({ port: deps.config.port, host: deps.config.host });
  return { stop: () => app.close() };
}

/** Workers inside `herald start`: the API process already serves health and metrics. */
export async function runWorkers(runtime: Runtime): Promise<Service> {
  const runner = createWorkerRunner(runtime.deps);
  await runner.start();
  return {
    async stop() {
      await runner.stop();
    },
  };
}

/**
 * A part that runs without the API (`herald worker`, `herald smtp`): the part plus /healthz, /readyz
 * and /metrics on PORT. The part is stopped first, then the HTTP server.
 */
async function withHealthServer(runtime: Runtime, part: Service): Promise<Service> {
  const { deps } = runtime;
  const http = Fastify({ logger: false });
  registerHttpMetrics(http, deps.metrics);
  registerHealth(http, deps.db);
  await http.listen({ port: deps.config.port, host: deps.config.host });
  return {
    async stop() {
      await part.stop();
      await http.close();
    },
  };
}

/** `herald worker` alone. */
export async function serveWorker(runtime: Runtime): Promise<Service> {
  return withHealthServer(runtime, await runWorkers(runtime));
}

/**
 * The inbound SMTP listener (HERALD_SMTP_PORT; 0 = off): accepts mail only for addresses Herald owns
 * (signed bounce return paths) and answers 250 once the message is committed to the spool (messages
 * that arrive together share one INSERT), so a message the database did not take is retried by the
 * sender. Then this process turns each delivery report or complaint into events and suppressions
 * itself (spool-processor.ts); what it does not finish, the worker's inbound-messages queue takes.
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
  });
  const logger = deps.logger.child({ part: 'smtp' });
  const listener = await startSmtpListener({
    port: config.smtpPort,
    host: config.host,
    tls: readSmtpTls(config.smtpTlsCert, config.smtpTlsKey),
    hostname: config.mailDomain,
    logger: deps.logger,
    metrics: deps.metrics,
    acceptsRecipient: (address) => parseReturnPath(address, deps.secrets) !== null,
    onMessage: async (message) => {
      const id = await spool.store(message);
      processor.take({ id, mailFrom: message.mailFrom, rcptTo: message.rcptTo, raw: message.raw });
    },
  });
  logger.info({ port: listener.port }, 'inbound SMTP listening');
  return {
    // Messages still waiting to be processed are finished first; a process killed instead leaves
    // them to the queue.
    stop: async () => {
      await listener.stop();
      await processor.drained();
    },
    drained: () => processor.drained(),
  };
}

export interface InboundSmtpService extends Service {
  /** Resolves once every message received so far has been processed (or left to the queue). */
  drained(): Promise<void>;
}

/** `herald smtp` alone. */
export async function serveSmtp(runtime: Runtime): Promise<Service> {
  return withHealthServer(runtime, await startInboundSmtp(runtime));
}
