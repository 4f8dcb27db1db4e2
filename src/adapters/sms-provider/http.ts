// One POST to a provider's API, bounded in time. Answers the status and the start of the body, or
// the reason nothing came back (which the adapters turn into `retry`).
// Each API origin has one undici Pool, asked by path: a worker posts thousands of messages a second
// to one URL, so nothing per message parses it or looks up its dispatcher. No timer, AbortController or
// abort listener per request either (they showed plainly in the worker's CPU per message): undici
// bounds the connection and each wait for data to the timeout, and one sweep ends any request still
// unanswered when the timeout has passed since it began.
// At most MAX_CONNECTIONS requests to one origin are open at once; the rest wait their turn, in
// order (Admission). Twilio answers 429 past its account's concurrency (100 by default), and
// hundreds of sockets cost both ends CPU per message (bench/RESULTS.md, "SMS delivery"). A caller
// whose requests may wait that long (the worker's batches) bounds them with `signal`.
import { Pool, type Dispatcher } from 'undici';
import type { SendOutcome } from './types.ts';

export const PROVIDER_TIMEOUT_MS = 15_000;
export const MAX_CONNECTIONS = 100;
const BODY_MAX = 64 * 1024;

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

function timeoutError(timeoutMs: number): Error {
  return Object.assign(new Error(`no answer within ${timeoutMs} ms`), { name: 'TimeoutError' });
}

/**
 * One request's answer, read by undici's dispatch handler: the status and the body's first BODY_MAX
 * bytes, kept as chunks until the end. Cheaper per request than `request()`, which wraps each answer
 * in a stream and each callback in an async resource (bench/RESULTS.md, "SMS delivery").
 */
class AnswerReader implements Dispatcher.DispatchHandler {
  readonly #settle: (answer: ProviderAnswer | ProviderFailure) => void;
  readonly #requests: Requests;
  readonly startedAt = performance.now();
  readonly signal: AbortSignal | undefined;
  controller: Dispatcher.DispatchController | null = null;
  /** Gone out on a connection: from here on, no answer does not mean the provider has nothing. */
  underWay = false;
  /** Its place among the requests under way (Requests). */
  listed = false;
  previous: AnswerReader | null = null;
  next: AnswerReader | null = null;
  #status = 0;
  #chunks: Buffer[] = [];
  #size = 0;
  #truncated = false;

  constructor(
    requests: Requests,
    signal: AbortSignal | undefined,
    settle: (answer: ProviderAnswer | ProviderFailure) => void,
  ) {
    this.#requests = requests;
    this.signal = signal;
    this.#settle = settle;
  }

  /** On its way to the provider: a request whose signal ended while it waited for a connection never goes. */
  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.controller = controller;
    if (this.signal?.aborted) {
      controller.abort(this.signal.reason);
      return;
    }
    this.underWay = true;
    this.#requests.started(this);
  }

  onResponseStart(_controller: Dispatcher.DispatchController, statusCode: number): void {
    this.#status = statusCode;
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    this.#size += chunk.length;
    if (this.#size <= BODY_MAX) {
      this.#chunks.push(chunk);
      return;
    }
    // The rest is not read: what came so far is the answer.
    this.#truncated = true;
    controller.abort(new Error('answer too large'));
  }

  onResponseEnd(): void {
    this.#requests.ended(this);
    this.#settle({ status: this.#status, text: this.#text() });
  }

  onResponseError(_controller: Dispatcher.DispatchController, error: Error): void {
    this.#requests.ended(this);
    if (this.#truncated) {
      this.#settle({ status: this.#status, text: this.#text() });
      return;
    }
    const reason: unknown = this.signal?.aborted ? this.signal.reason : error;
    const failure = describe(reason, this.#requests.timeoutMs);
    this.#settle(this.underWay ? { error: failure, unconfirmed: true } : { error: failure });
  }

  #text(): string {
    return this.#chunks.length === 1 ? this.#chunks[0]!.toString('utf8') : Buffer.concat(this.#chunks).toString('utf8');
  }
}

/**
 * Requests under way, for the two things that end them from outside. A signal (a worker's batch
 * deadline, shared by hundreds of requests) gets one listener that aborts its requests, not one
 * listener per request. And one sweep ends any request still unanswered when the timeout has passed
 * since it began: undici bounds the connection and each wait for data, not the whole answer.
 * They are kept as a list linked through the requests themselves, unlinked when they end: a Set
 * with a request added and deleted per message left the young generation's collections copying
 * and promoting ended requests with their answers (bench/RESULTS.md, "SMS delivery").
 */
class Requests {
  readonly timeoutMs: number;
  #first: AnswerReader | null = null;
  #last: AnswerReader | null = null;
  /** Signals already listened to: each aborts the requests under way that it bounds. */
  readonly #listening = new WeakSet<AbortSignal>();
  readonly #sweepMs: number;
  #sweeper: NodeJS.Timeout | null = null;

  constructor(timeoutMs: number) {
    this.timeoutMs = timeoutMs;
    this.#sweepMs = Math.min(1000, Math.max(10, Math.round(timeoutMs / 10)));
  }

  started(request: AnswerReader): void {
    if (request.listed) return;
    request.previous = this.#last;
    if (this.#last === null) this.#first = request;
    else this.#last.next = request;
    this.#last = request;
    request.listed = true;
    this.#sweeper ??= setInterval(() => this.#sweep(), this.#sweepMs).unref();
    const signal = request.signal;
    if (signal === undefined || this.#listening.has(signal)) return;
    this.#listening.add(signal);
    signal.addEventListener('abort', () => this.#abortWhere((r) => r.signal === signal, signal.reason), {
      once: true,
    });
  }

  ended(request: AnswerReader): void {
    if (!request.listed) return;
    request.listed = false;
    const { previous, next } = request;
    if (previous === null) this.#first = next;
    else previous.next = next;
    if (next === null) this.#last = previous;
    else next.previous = previous;
    request.previous = request.next = null;
    if (this.#first === null && this.#sweeper !== null) {
      clearInterval(this.#sweeper);
      this.#sweeper = null;
    }
  }

  #sweep(): void {
    const until = performance.now() - this.timeoutMs;
    this.#abortWhere((r) => r.startedAt <= until, timeoutError(this.timeoutMs));
  }

  /** An abort may end its request at once, unlinking it: the next is read before. */
  #abortWhere(matches: (request: AnswerReader) => boolean, reason: Error): void {
    for (let request = this.#first; request !== null;) {
      const next = request.next;
      if (matches(request)) request.controller?.abort(reason);
      request = next;
    }
  }
}

/**
 * Requests an origin's pool is given at once: no more than its connections. Undici would queue the
 * rest itself, each as a request object with its headers processed and its handler, and a worker's
 * batches kept hundreds of those alive at a time; here each waits as one closure, in order, and the
 * garbage collector has less to copy (bench/RESULTS.md, "SMS delivery").
 */
class Admission {
  readonly #limit: number;
  #open = 0;
  #waiting: (() => void)[] = [];
  #head = 0;
  #draining = false;

  constructor(limit: number) {
    this.#limit = limit;
  }

  /** Runs `start` now if there is room, else once the requests ahead of it have made room. */
  enter(start: () => void): void {
    this.#waiting.push(start);
    this.#drain();
  }

  /** A request ended: its place goes to the longest waiting. */
  leave(): void {
    this.#open--;
    this.#drain();
  }

  #drain(): void {
    // A request may end as it starts (a closed pool): the loop below goes on, not a nested one.
    if (this.#draining) return;
    this.#draining = true;
    while (this.#open < this.#limit && this.#head < this.#waiting.length) {
      const start = this.#waiting[this.#head++]!;
      this.#open++;
      start();
    }
    if (this.#head === this.#waiting.length) {
      this.#waiting = [];
      this.#head = 0;
    } else if (this.#head >= 1024) {
      this.#waiting = this.#waiting.slice(this.#head);
      this.#head = 0;
    }
    this.#draining = false;
  }
}

interface Target {
  pool: Pool;
  admission: Admission;
  path: string;
}

export function createProviderHttp(timeoutMs = PROVIDER_TIMEOUT_MS, connections = MAX_CONNECTIONS): ProviderHttp {
  const pools = new Map<string, { pool: Pool; admission: Admission }>();
  // An adapter posts to one or two fixed URLs; the cap only guards against a caller that varies them.
  const targets = new Map<string, Target>();
  const requests = new Requests(timeoutMs);

  function targetOf(url: string, remember: boolean): Target {
    const known = targets.get(url);
    if (known !== undefined) return known;
    const parsed = new URL(url);
    let origin = pools.get(parsed.origin);
    if (origin === undefined) {
      const pool = new Pool(parsed.origin, { keepAliveTimeout: 30_000, connectTimeout: timeoutMs, connections });
      origin = { pool, admission: new Admission(connections) };
      pools.set(parsed.origin, origin);
    }
    const target = { ...origin, path: `${parsed.pathname}${parsed.search}` };
    if (remember && targets.size < 100) targets.set(url, target);
    return target;
  }

  function send(
    method: 'GET' | 'POST',
    url: string,
    headers: Record<string, string>,
    body: string | null,
    signal: AbortSignal | undefined,
  ): Promise<ProviderAnswer | ProviderFailure> {
    if (signal?.aborted) return Promise.resolve({ error: describe(signal.reason, timeoutMs) });
    let target: Target;
    try {
      // A read's URL names one message: it is not kept among the few fixed ones.
      target = targetOf(url, method === 'POST');
    } catch (error) {
      return Promise.resolve({ error: describe(error, timeoutMs) });
    }
    const { pool, admission, path } = target;
    return new Promise((resolve) => {
      admission.enter(() => {
        let settled = false;
        const settle = (answer: ProviderAnswer | ProviderFailure) => {
          if (settled) return;
          settled = true;
          admission.leave();
          resolve(answer);
        };
        // The caller may have given up while it waited.
        if (signal?.aborted) return settle({ error: describe(signal.reason, timeoutMs) });
        try {
          pool.dispatch(
            { path, method, headers, body, headersTimeout: timeoutMs, bodyTimeout: timeoutMs },
            new AnswerReader(requests, signal, settle),
          );
        } catch (error) {
          settle({ error: describe(error, timeoutMs) });
        }
      });
    });
  }

  return {
    post: (url, headers, body, signal) => send('POST', url, headers, body, signal),
    get: (url, headers, signal) => send('GET', url, headers, null, signal),
    close: async () => {
      await Promise.all([...pools.values()].map((origin) => origin.pool.close()));
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
