// One delivery attempt of one call: re-check the host, POST the signed body, keep the status, the
// time taken and the first 2 KB of the answer (never its headers). Redirects are not followed
// (undici's request never follows them without the redirect interceptor): a 3xx is a failure.
import type { Dispatcher } from 'undici';
import { deadline } from '../platform/deadline.ts';
import { lazy } from '../platform/lazy.ts';
import { signedHeaders } from './signing.ts';
import { parseRetryAfter } from './retry-schedule.ts';
import type { WebhookScheme } from './url-safety.ts';

export const REQUEST_TIMEOUT_MS = 15_000;
const RESPONSE_TEXT_MAX = 2_048;
// Bodies up to this size are read to the end so the connection can be reused; longer ones are cut.
const DRAIN_MAX = 64 * 1024;

interface AttemptTarget {
  callId: string;
  /** The event type and which attempt this is: useSend's X-UseSend-Event and X-UseSend-Retry. */
  type: string;
  attempt: number;
  url: string;
  secret: string;
  payload: string;
}

export interface AttemptResult {
  delivered: boolean;
  responseStatus: number | null;
  responseTimeMs: number;
  responseText: string | null;
  /** Why it did not count as delivered; null when delivered. */
  error: string | null;
  /** 429/503 Retry-After, in ms. */
  retryAfterMs: number | null;
  /** 410 Gone: the endpoint asks never to be called again with this event. */
  gone: boolean;
}

/** undici, read at the first delivery. */
const undici = lazy(() => import('undici'));

export interface AttemptTransport {
  /** The connections to deliver through (http-agent.ts), made at the first delivery. */
  dispatcher(): Promise<Dispatcher>;
  /**
   * Resolves the host again and refuses private addresses (url-safety.ts), and an http:// URL whose
   * host is no longer wholly inside HERALD_WEBHOOK_ALLOW_CIDRS; throws with the reason.
   */
  checkHost(hostname: string, scheme: WebhookScheme): Promise<void>;
  /** Closes pooled connections; called once the lane stopped. */
  close?(): Promise<void>;
}

async function readStart(body: AsyncIterable<Buffer> & { destroy(): void }): Promise<string> {
  const chunks: Buffer[] = [];
  let kept = 0;
  let seen = 0;
  for await (const chunk of body) {
    seen += chunk.length;
    if (kept < RESPONSE_TEXT_MAX) {
      const part = chunk.subarray(0, RESPONSE_TEXT_MAX - kept);
      chunks.push(part);
      kept += part.length;
    }
    if (seen > DRAIN_MAX) {
      body.destroy();
      break;
    }
  }
  return Buffer.concat(chunks).toString('utf8');
}

function describe(error: unknown, timeoutMs: number): string {
  if (!(error instanceof Error)) return String(error);
  const cause = (error as { cause?: unknown }).cause;
  if (error.name === 'TimeoutError' || error.name === 'AbortError') return `no answer within ${timeoutMs / 1000} s`;
  const code = (error as { code?: string }).code;
  const detail = cause instanceof Error ? `: ${cause.message}` : '';
  return `${code ? `${code} ` : ''}${error.message}${detail}`.slice(0, 500);
}

export async function attemptDelivery(
  transport: AttemptTransport,
  target: AttemptTarget,
  now: Date,
  timeoutMs = REQUEST_TIMEOUT_MS,
): Promise<AttemptResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const limit = deadline(timeoutMs);
  try {
    const url = new URL(target.url);
    await transport.checkHost(url.hostname, url.protocol === 'https:' ? 'https:' : 'http:');
    const stamp = { id: target.callId, type: target.type, attempt: target.attempt, at: now };
    const headers = signedHeaders(target.secret, stamp, target.payload);
    const { request } = await undici();
    const response = await request(url, {
      method: 'POST',
      headers,
      body: target.payload,
      dispatcher: await transport.dispatcher(),
      signal: limit.signal,
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
    });
    const text = await readStart(response.body);
    const status = response.statusCode;
    const delivered = status >= 200 && status < 300;
    const throttled = status === 429 || status === 503;
    return {
      delivered,
      responseStatus: status,
      responseTimeMs: elapsed(),
      responseText: text,
      error: delivered ? null : `the endpoint answered ${status}`,
      retryAfterMs: throttled ? parseRetryAfter(response.headers['retry-after'], now) : null,
      gone: status === 410,
    };
  } catch (error) {
    return {
      delivered: false,
      responseStatus: null,
      responseTimeMs: elapsed(),
      responseText: null,
      error: describe(error, timeoutMs),
      retryAfterMs: null,
      gone: false,
    };
  } finally {
    limit.done();
  }
}
