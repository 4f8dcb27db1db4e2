// The long-running parts a command composes: the HTTP API and the background worker.
import Fastify from 'fastify';
import { buildApp } from './app.ts';
import { registerHealth } from './platform/health.ts';
import { registerHttpMetrics } from './platform/metrics.ts';
import type { Runtime } from './runtime.ts';
import { createWorkerRunner } from './worker.ts';

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

/** `herald worker` alone: the workers plus /healthz, /readyz and /metrics on PORT. */
export async function serveWorker(runtime: Runtime): Promise<Service> {
  const { deps } = runtime;
  const workers = await runWorkers(runtime);
  const http = Fastify({ logger: false });
  registerHttpMetrics(http, deps.metrics);
  registerHealth(http, deps.db);
  await http.listen({ port: deps.config.port, host: deps.config.host });
  return {
    async stop() {
      await http.close();
      await workers.stop();
    },
  };
}
