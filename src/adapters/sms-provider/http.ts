// One POST to a provider's API, bounded in time. Answers the status and the start of the body, or
// the reason nothing came back (which the adapters turn into `retry`).
// Each API origin has one undici Pool, asked by path: a worker posts thousands of messages a second
// to one URL, so nothing per message parses it or looks up its dispatcher. No timer or AbortController
// per request either (they showed plainly in the worker's CPU per message): undici bounds the connection
// and the wait for the headers, each to the timeout, and one sweep ends any body still being read when
// the timeout has passed since the request began.
// At most MAX_CONNECTIONS requests to one origin are open at once; the rest wait their turn inside the
// pool. Twilio answers 429 past its account's concurrency (100 by default), and hundreds of sockets
// cost both ends CPU per message (bench/RESULTS.md, "SMS delivery"). A caller whose requests may wait
// that long (the worker's batches) bounds them with `signal`.
import type { Readable } from 'node:stream';
import { Pool } from 'undici';

export const PROVIDER_TIMEOUT_MS = 15_000;
export const MAX_CONNECTIONS = 100;
const BODY_MAX = 64 * 1024;

export interface ProviderAnswer {
  status: number;
  text: string;
}

export interface ProviderHttp {
  /** `signal` ends the request, waiting or under way; the answer is then the error its reason names. */
  post(
    url: string,
    headers: Record<string, string>,
    body: string,
    signal?: AbortSignal,
  ): Promise<ProviderAnswer | { error: string }>;
  close(): Promise<void>;
}

function timeoutError(timeoutMs: number): Error {
  return Object.assign(new Error(`no answer within ${timeoutMs} ms`), { name: 'TimeoutError' });
}

/** Answers whose bodies are being read, each with its deadline; one interval runs while there are any. */
class BodyDeadlines {
  readonly #reading = new Map<Readable, number>();
  readonly timeoutMs: number;
  readonly #sweepMs: number;
  #sweeper: NodeJS.Timeout | null = null;

  constructor(timeoutMs: number) {
    this.timeoutMs = timeoutMs;
    this.#sweepMs = Math.min(1000, Math.max(10, Math.round(timeoutMs / 10)));
  }

  watch(body: Readable, startedAt: number): void {
    const until = startedAt + this.timeoutMs;
    if (performance.now() >= until) {
      body.destroy(timeoutError(this.timeoutMs));
      return;
    }
    this.#reading.set(body, until);
    this.#sweeper ??= setInterval(() => this.#sweep(), this.#sweepMs).unref();
  }

  unwatch(body: Readable): void {
    this.#reading.delete(body);
    if (this.#reading.size === 0 && this.#sweeper !== null) {
      clearInterval(this.#sweeper);
      this.#sweeper = null;
    }
  }

  #sweep(): void {
    const now = performance.now();
    for (const [body, until] of this.#reading) {
      if (now < until) continue;
      this.#reading.delete(body);
      body.destroy(timeoutError(this.timeoutMs));
    }
  }
}

interface Target {
  pool: Pool;
  path: string;
}

export function createProviderHttp(timeoutMs = PROVIDER_TIMEOUT_MS, connections = MAX_CONNECTIONS): ProviderHttp {
  const pools = new Map<string, Pool>();
  // An adapter posts to one or two fixed URLs; the cap only guards against a caller that varies them.
  const targets = new Map<string, Target>();
  const deadlines = new BodyDeadlines(timeoutMs);

  function targetOf(url: string): Target {
    const known = targets.get(url);
    if (known !== undefined) return known;
    const parsed = new URL(url);
    let pool = pools.get(parsed.origin);
    if (pool === undefined) {
      pool = new Pool(parsed.origin, { keepAliveTimeout: 30_000, connectTimeout: timeoutMs, connections });
      pools.set(parsed.origin, pool);
    }
    const target = { pool, path: `${parsed.pathname}${parsed.search}` };
    if (targets.size < 100) targets.set(url, target);
    return target;
  }

  async function readBody(body: Readable & { text(): Promise<string> }, length: number): Promise<string> {
    // A body that says its length and is small enough is read whole, the common answer's cheaper path.
    if (length <= BODY_MAX) return body.text();
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of body) {
      size += (chunk as Buffer).length;
      if (size > BODY_MAX) {
        body.destroy();
        break;
      }
      chunks.push(chunk as Buffer);
    }
    return Buffer.concat(chunks).toString('utf8');
  }

  return {
    async post(url, headers, body, signal) {
      const startedAt = performance.now();
      let response;
      try {
        const { pool, path } = targetOf(url);
        response = await pool.request({
          path,
          method: 'POST',
          headers,
          body,
          headersTimeout: timeoutMs,
          bodyTimeout: timeoutMs,
          signal,
        });
      } catch (error) {
        return { error: describe(signal?.aborted ? signal.reason : error, timeoutMs) };
      }
      deadlines.watch(response.body, startedAt);
      try {
        const text = await readBody(response.body, Number(response.headers['content-length']));
        return { status: response.statusCode, text };
      } catch (error) {
        return { error: describe(signal?.aborted ? signal.reason : error, timeoutMs) };
      } finally {
        deadlines.unwatch(response.body);
      }
    },
    close: async () => {
      await Promise.all([...pools.values()].map((pool) => pool.close()));
    },
  };
}

function describe(error: unknown, timeoutMs: number): string {
  if (!(error instanceof Error)) return String(error);
  if (error.name === 'TimeoutError' || error.name === 'AbortError' || /timeout/i.test(error.name)) {
    return `no answer within ${timeoutMs / 1000} s`;
  }
  const code = (error as { code?: string }).code;
  const cause = (error as { cause?: unknown }).cause;
  return `${code ? `${code} ` : ''}${error.message}${cause instanceof Error ? `: ${cause.message}` : ''}`.slice(0, 300);
}

/** JSON.parse that answers undefined instead of throwing: provider error bodies are not always JSON. */
export function tryJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

export function header(headers: Record<string, string | string[] | undefined>, name: string): string | undefined {
  const value = headers[name] ?? headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
}
