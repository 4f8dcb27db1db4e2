// Queue figures for /metrics. Metrics are looked up in the registry before being created, because
// several runners (tests, `herald start` running api and worker in one process) share one registry
// and prom-client refuses to register a name twice.
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { Clock } from '../platform/clock.ts';
import { queueDepth } from './claim.ts';
import type { Queue } from './define-queue.ts';

type JobOutcomeLabel = 'done' | 'retry' | 'failed' | 'lost';

export interface QueueMetrics {
  observeClaim(queue: string, seconds: number): void;
  countJobs(queue: string, outcome: JobOutcomeLabel, count: number): void;
}

export const noMetrics: QueueMetrics = { observeClaim() {}, countJobs() {} };

function existing<T>(registry: Registry, name: string): T | undefined {
  return registry.getSingleMetric(name) as T | undefined;
}

export function queueMetrics(registry: Registry): QueueMetrics {
  const claimSeconds =
    existing<Histogram<'queue'>>(registry, 'herald_queue_claim_seconds') ??
    new Histogram({
      name: 'herald_queue_claim_seconds',
      help: 'Time taken by one claim statement (including the finalisation of the previous batch it carries)',
      labelNames: ['queue'],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
      registers: [registry],
    });
  const jobsTotal =
    existing<Counter<'queue' | 'outcome'>>(registry, 'herald_queue_jobs_total') ??
    new Counter({
      name: 'herald_queue_jobs_total',
      help: 'Jobs finalised, by outcome (lost: the lease had passed to another worker)',
      labelNames: ['queue', 'outcome'],
      registers: [registry],
    });
  return {
    observeClaim: (queue, seconds) => claimSeconds.observe({ queue }, seconds),
    countJobs: (queue, outcome, count) => {
      if (count > 0) jobsTotal.inc({ queue, outcome }, count);
    },
  };
}

/**
 * herald_queue_depth{queue}: due rows nobody holds, counted when /metrics is scraped. Call it once
 * per registry (in the process that serves /metrics); it counts with one query per queue.
 */
export function registerQueueDepthGauge(
  registry: Registry,
  db: Kysely<Database>,
  queues: readonly Queue[],
  clock: Clock,
): void {
  if (existing(registry, 'herald_queue_depth') !== undefined) return;
  new Gauge({
    name: 'herald_queue_depth',
    help: 'Due jobs not held by any worker',
    labelNames: ['queue'],
    registers: [registry],
    async collect() {
      const now = clock.now();
      // A database that cannot be read leaves the gauge out of this scrape instead of failing the
      // whole scrape, so the process metrics still show when they matter most.
      const depths = await Promise.all(queues.map((queue) => queueDepth(db, queue, now).catch(() => null)));
      this.reset();
      queues.forEach((queue, i) => {
        const depth = depths[i];
        if (depth !== null && depth !== undefined) this.set({ queue: queue.name }, depth);
      });
    },
  });
}
