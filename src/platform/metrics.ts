// Prometheus metrics: request counts and latencies by route and status, plus whatever the queue
// and other parts register on the same registry.
import type { FastifyInstance } from 'fastify';
import { Registry, collectDefaultMetrics } from 'prom-client';
import { RequestMetrics } from './request-metrics.ts';

export function createMetricsRegistry(): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'herald_' });
  return registry;
}

export function registerHttpMetrics(app: FastifyInstance, registry: Registry): void {
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
  app.get('/metrics', { schema: { hide: true } }, async (_request, reply) => {
    reply.header('content-type', registry.contentType);
    return registry.metrics();
  });
}
