// herald_http_requests_total and herald_http_request_duration_seconds, counted in plain JavaScript
// and turned into Prometheus series only when scraped. prom-client's Counter.inc and
// Histogram.observe validate and hash their label object on every call, a real share of a request as
// cheap as the tracking pixel. Here a request is one Map lookup and a few additions; the
// exposition (names, labels, cumulative buckets, _sum and _count) is what prom-client writes for a
// Counter and a Histogram, so scrapers see no difference (test/platform/request-metrics.test.ts).
import { Counter, Histogram, type Registry } from 'prom-client';

const REQUESTS = { name: 'herald_http_requests_total', help: 'HTTP requests answered, by method, route and status' };
const DURATION = {
  name: 'herald_http_request_duration_seconds',
  help: 'HTTP request latency, by method, route and status',
};
export const REQUEST_DURATION_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

type LabelName = 'method' | 'route' | 'status';

interface Series {
  labels: Record<LabelName, string>;
  count: number;
  sum: number;
  /** Observations per bucket (not cumulative); the last slot is +Inf. */
  buckets: number[];
}

export class RequestMetrics {
  readonly #series = new Map<string, Series>();

  /** One answered request: its method, route pattern, status code and duration in seconds. */
  record(method: string, route: string, statusCode: number, seconds: number): void {
    const key = `${method} ${statusCode} ${route}`;
    let series = this.#series.get(key);
    if (series === undefined) {
      series = {
        labels: { method, route, status: String(statusCode) },
        count: 0,
        sum: 0,
        buckets: new Array<number>(REQUEST_DURATION_BUCKETS.length + 1).fill(0),
      };
      this.#series.set(key, series);
    }
    series.count += 1;
    series.sum += seconds;
    let bucket = 0;
    while (bucket < REQUEST_DURATION_BUCKETS.length && seconds > REQUEST_DURATION_BUCKETS[bucket]!) bucket++;
    series.buckets[bucket]! += 1;
  }

  /** The two metrics on `registry`, reading this object when scraped. */
  register(registry: Registry): void {
    const series = () => [...this.#series.values()];
    new RequestCounter(series, registry);
    new RequestHistogram(series, registry);
  }
}

// prom-client's typings declare `type` as an enum while the library writes strings; the values
// below are what its own Counter and Histogram return.
type Exposition = Awaited<ReturnType<Counter['get']>>;
const asExposition = (value: { name: string; help: string; type: string; aggregator: string; values: unknown[] }) =>
  value as unknown as Exposition;

class RequestCounter extends Counter<LabelName> {
  readonly #series: () => Series[];

  constructor(series: () => Series[], registry: Registry) {
    super({ ...REQUESTS, labelNames: ['method', 'route', 'status'], registers: [registry] });
    this.#series = series;
  }

  override async get(): Promise<Exposition> {
    const values = this.#series().map((s) => ({ labels: s.labels, value: s.count }));
    return asExposition({ ...REQUESTS, type: 'counter', aggregator: 'sum', values });
  }
}

class RequestHistogram extends Histogram<LabelName> {
  readonly #series: () => Series[];

  constructor(series: () => Series[], registry: Registry) {
    super({
      ...DURATION,
      labelNames: ['method', 'route', 'status'],
      buckets: REQUEST_DURATION_BUCKETS,
      registers: [registry],
    });
    this.#series = series;
  }

  override async get(): Promise<Exposition> {
    const values = [];
    for (const s of this.#series()) {
      let cumulative = 0;
      for (let i = 0; i <= REQUEST_DURATION_BUCKETS.length; i++) {
        cumulative += s.buckets[i]!;
        const le = i < REQUEST_DURATION_BUCKETS.length ? REQUEST_DURATION_BUCKETS[i]! : '+Inf';
        values.push({ labels: { ...s.labels, le }, value: cumulative, metricName: `${DURATION.name}_bucket` });
      }
      values.push({ labels: s.labels, value: s.sum, metricName: `${DURATION.name}_sum` });
      values.push({ labels: s.labels, value: s.count, metricName: `${DURATION.name}_count` });
    }
    return asExposition({ ...DURATION, type: 'histogram', aggregator: 'sum', values });
  }

  /** The registry prefers this one when the metric has it (prom-client's Histogram does). */
  async getForPromString(): Promise<Exposition> {
    return this.get();
  }
}
