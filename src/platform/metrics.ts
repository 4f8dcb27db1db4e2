// Prometheus metrics: request counts and latencies by route and status, the process's own figures
// under their usual names (process_cpu_seconds_total, process_resident_memory_bytes, nodejs_*), plus
// whatever the queue and other parts register on the same registry.
import type { FastifyInstance } from 'fastify';
import { Registry, collectDefaultMetrics } from 'prom-client';
import { RequestMetrics } from './request-metrics.ts';

export function createMetricsRegistry(): Registry {
  const registry = new Registry();
  // No prefix: dashboards and alerts written for any Node.js service find these names as they are.
  collectDefaultMetrics({ register: registry });
  return registry;
}

/** Counts every request the app answers, by route pattern and status. */
export function recordHttpMetrics(app: FastifyInstance, registry: Registry): void {
  const requests = new RequestMetrics();
  requests.register(registry);
  app.addHook('onResponse', (request, reply, done) => {
    // The route pattern, never the raw URL: ids in paths would explode the label set.
    requests.record(
      request.method,
      request.routeOptions.url ?? 'unmatched',
      reply.statusCode,
      reply.elapsedTime / 1000,
    );
    done();
  });
}

/** GET /metrics: on PORT, or on HERALD_METRICS_PORT's own listener when that is set. */
export function serveMetrics(app: FastifyInstance, registry: Registry): void {
  app.get('/metrics', { schema: { hide: true } }, async (_request, reply) => {
    reply.header('content-type', registry.contentType);
    return registry.metrics();
  });
}
