// The long-running parts a command composes: the HTTP API and the background worker.
import type { Runtime } from './runtime.ts';
import { buildApp } from './app.ts';

export interface Service {
  stop(): Promise<void>;
}

export async function serveApi(runtime: Runtime): Promise<Service> {
  const { deps } = runtime;
  const app = await buildApp(deps);
  await app.listen({ port: deps.config.port, host: deps.config.host });
  return { stop: () => app.close() };
}

export async function serveWorker(_runtime: Runtime): Promise<Service> {
  return { stop: async () => {} };
}
