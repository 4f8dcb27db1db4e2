// One request to a provider's API, bounded in time: undici's request() on the origin's pool
// (provider-pool.ts), with a deadline (platform/deadline.ts) that also ends it when the caller's
// signal does. Answers the status and the start of the body, or the reason nothing came back (which
// the adapters turn into `retry`, unconfirmed when the request had gone out).
// At most MAX_CONNECTIONS requests to one origin are open at once; the rest wait in the pool's queue,
// in order. Twilio answers 429 past its account's concurrency (100 by default), and hundreds of
// sockets cost both ends CPU per message (bench/RESULTS.md, "SMS delivery"). Each API origin has one
// pool, asked by path: nothing per message parses a fixed URL.
import { deadline } from '../../platform/deadline.ts';
import { lazy } from '../../platform/lazy.ts';
import type { ProviderPool, ProviderRequest } from './provider-pool.ts';
import type { SendOutcome } from './types.ts';

const PROVIDER_TIMEOUT_MS = 15_000;
export const MAX_CONNECTIONS = 100;
const BODY_MAX = 64 * 1024;

/** The pool class with undici, read at the first request to a provider. */
const providerPools = lazy(() => import('./provider-pool.ts'));

export interface ProviderAnswer {
  status: number;
  text: string;
}

/**
 * Why no answer came. `unconfirmed`: the request had gone out on its connection when it ended (a
 * timeout, a deadline, a connection lost while waiting for the answer), so the provider may have
 * acted on it; otherwise it never left (no connection, or the caller gave up while it waited).
 */
export interface ProviderFailure {
  error: string;
  unconfirmed?: true;
}

export interface ProviderHttp {
  /** `signal` ends the request, waiting or under way; the answer is then the error its reason names. */
  post(
    url: string,
    headers: Record<string, string>,
    body: string,
    signal?: AbortSignal,
  ): Promise<ProviderAnswer | ProviderFailure>;
  /** A read (a provider's lookup), through the same connections and bounds. */
  get(url: string, headers: Record<string, string>, signal?: AbortSignal): Promise<ProviderAnswer | ProviderFailure>;
  close(): Promise<void>;
}

interface Target {
  pool: ProviderPool;
  path: string;
}

type Body = Awaited<ReturnType<ProviderPool['request']>>['body'];

/** The body's first BODY_MAX bytes; a longer one is cut there and its connection closed. */
async function answerText(body: Body, length: string | string[] | undefined): Promise<string> {
  if (Number(length) <= BODY_MAX) return body.text();
  const kept: Buffer[] = [];
  let room = BODY_MAX;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    kept.push(chunk.subarray(0, room));
    room -= Math.min(room, chunk.length);
    if (room === 0) break; // leaving the loop destroys the body
  }
  return Buffer.concat(kept).toString('utf8');
}

export function createProviderHttp(timeoutMs = PROVIDER_TIMEOUT_MS, connections = MAX_CONNECTIONS): ProviderHttp {
  const pools = new Map<string, ProviderPool>();
  // An adapter posts to one or two fixed URLs; the cap only guards against a caller that varies them.
  const targets = new Map<string, Target>();

  async function targetOf(url: string, remember: boolean): Promise<Target> {
    const parsed = new URL(url);
    let pool = pools.get(parsed.origin);
    if (pool === undefined) {
      const { ProviderPool } = await providerPools();
      // Another request may have made it while the package loaded.
      pool =
        pools.get(parsed.origin) ??
        new ProviderPool(parsed.origin, { keepAliveTimeout: 30_000, connectTimeout: timeoutMs, connections });
      pools.set(parsed.origin, pool);
    }
    const target = { pool, path: `${parsed.pathname}${parsed.search}` };
    if (remember && targets.size < 100) targets.set(url, target);
    return target;
  }

  async function send(
    method: 'GET' | 'POST',
    url: string,
    headers: Record<string, string>,
    body: string | null,
    signal: AbortSignal | undefined,
  ): Promise<ProviderAnswer | ProviderFailure> {
    if (signal?.aborted) return { error: describe(signal.reason, timeoutMs) };
    const limit = deadline(timeoutMs, signal);
    const request: ProviderRequest = {
      path: '',
      method,
      headers,
      body,
      signal: limit.signal,
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
      sent: false,
    };
    try {
      // A read's URL names one message: it is not kept among the few fixed ones.
      const { pool, path } = targets.get(url) ?? (await targetOf(url, method === 'POST'));
      // The caller may have given up while the pool's package loaded: it never left.
      limit.signal.throwIfAborted();
      request.path = path;
      const response = await pool.request(request);
      return { status: response.statusCode, text: await answerText(response.body, response.headers['content-length']) };
    } catch (error) {
      const failure = describe(error, timeoutMs);
      return request.sent ? { error: failure, unconfirmed: true } : { error: failure };
    } finally {
      limit.done();
    }
  }

  return {
    post: (url, headers, body, signal) => send('POST', url, headers, body, signal),
    get: (url, headers, signal) => send('GET', url, headers, null, signal),
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

/**
 * An application/x-www-form-urlencoded body, as URLSearchParams would write it for a form parser
 * (a lone surrogate becomes U+FFFD), without building one per message: the worker's hottest path.
 */
export function formBody(fields: Readonly<Record<string, string>>): string {
  let body = '';
  for (const name in fields) {
    if (body !== '') body += '&';
    body += `${encodeURIComponent(name)}=${encodeURIComponent(fields[name]!.toWellFormed())}`;
  }
  return body;
}

/** A send without an answer as a retry, unconfirmed when the request had gone out. */
export function noAnswer(provider: string, failure: ProviderFailure): SendOutcome {
  const error = `${provider}: ${failure.error}`;
  return failure.unconfirmed ? { kind: 'retry', error, unconfirmed: true } : { kind: 'retry', error };
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
