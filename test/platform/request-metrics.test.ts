// RequestMetrics (platform/request-metrics.ts) keeps the HTTP request counts and latency histogram
// itself; what /metrics shows must be what prom-client's own Counter and Histogram would show for
// the same requests, bucket boundaries included.
import { Counter, Histogram, Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { REQUEST_DURATION_BUCKETS, RequestMetrics } from '../../src/platform/request-metrics.ts';

/** Exposition lines, each with its labels in name order, sorted: label and line order carry no meaning. */
function normalised(text: string): string[] {
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => {
      const match = /^([^{ ]+)\{(.*)\} (.+)$/.exec(line);
      if (match === null) return line;
      const labels = match[2]!.match(/[a-z_]+="(?:[^"\\]|\\.)*"/g)!.sort();
      return `${match[1]}{${labels.join(',')}} ${Number(match[3])}`;
    })
    .sort();
}

const requests: [string, string, number, number][] = [
  ['GET', '/t/o/:token', 200, 0.0004],
  ['GET', '/t/o/:token', 200, 0.001], // exactly on a bound: counted in it (le means "at most")
  ['GET', '/t/o/:token', 200, 0.0025],
  ['GET', '/t/o/:token', 200, 0.0026],
  ['POST', '/api/v1/emails', 200, 0.012],
  ['POST', '/api/v1/emails', 422, 0.003],
  ['GET', 'unmatched', 404, 12], // past the last bound: +Inf only
  ['GET', '/api/v1/emails/:id', 200, 10],
];

describe('RequestMetrics', () => {
  it('shows what prom-client Counter and Histogram show for the same requests', async () => {
    const ours = new Registry();
    const metrics = new RequestMetrics();
    metrics.register(ours);

    const reference = new Registry();
    const labelNames = ['method', 'route', 'status'] as const;
    const count = new Counter({
      name: 'herald_http_requests_total',
      help: 'HTTP requests answered, by method, route and status',
      labelNames,
      registers: [reference],
    });
    const duration = new Histogram({
      name: 'herald_http_request_duration_seconds',
      help: 'HTTP request latency, by method, route and status',
      labelNames,
      buckets: REQUEST_DURATION_BUCKETS,
      registers: [reference],
    });

    for (const [method, route, status, seconds] of requests) {
      metrics.record(method, route, status, seconds);
      const labels = { method, route, status: String(status) };
      count.inc(labels);
      duration.observe(labels, seconds);
    }
    const expected = normalised(await reference.metrics());
    expect(expected.length).toBeGreaterThan(50);
    expect(normalised(await ours.metrics())).toEqual(expected);
    // The JSON form that getMetricsAsJSON callers read: same series and values.
    const json = await ours.getMetricsAsJSON();
    expect(json.map((m) => m.name)).toEqual(['herald_http_requests_total', 'herald_http_request_duration_seconds']);
    expect(json[0]!.values).toContainEqual({
      labels: { method: 'GET', route: '/t/o/:token', status: '200' },
      value: 4,
    });
  });

  it('starts empty and counts a series from its first request', async () => {
    const registry = new Registry();
    const metrics = new RequestMetrics();
    metrics.register(registry);
    expect(await registry.metrics()).not.toMatch(/herald_http_requests_total\{/);
    metrics.record('GET', '/healthz', 200, 0.0001);
    metrics.record('GET', '/healthz', 200, 0.0001);
    expect(await registry.metrics()).toContain(
      'herald_http_requests_total{method="GET",route="/healthz",status="200"} 2',
    );
  });
});
