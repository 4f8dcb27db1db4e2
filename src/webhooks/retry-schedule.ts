// When a call is tried again (documented in docs/webhooks.md): attempt 1 at once, then after 5 s,
// 5 min, 30 min, 2 h, 5 h, 10 h and 10 h, each ±20% so that calls failed together do not come back
// together; eight attempts over about 28 hours, then the call is FAILED.
import { randomInt } from 'node:crypto';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/** DELAYS_MS[n] is the wait after attempt n (1-based) failed. */
const DELAYS_MS = [0, 5 * SECOND, 5 * MINUTE, 30 * MINUTE, 2 * HOUR, 5 * HOUR, 10 * HOUR, 10 * HOUR];
export const MAX_ATTEMPTS = DELAYS_MS.length;
const LONGEST_MS = Math.max(...DELAYS_MS);
const JITTER = 0.2;

function jittered(ms: number): number {
  const spread = Math.round(ms * JITTER);
  return spread === 0 ? ms : ms - spread + randomInt(2 * spread + 1);
}

/**
 * The time of the next attempt after attempt `attempt` failed, or null when it was the last one.
 * A 429 or 503 with Retry-After waits at least that long, but never longer than the schedule's
 * longest step, and still uses up one attempt: an endpoint cannot hold a call forever.
 */
export function nextAttemptAt(attempt: number, now: Date, retryAfterMs: number | null = null): Date | null {
  if (attempt >= MAX_ATTEMPTS) return null;
  let delay = jittered(DELAYS_MS[attempt]!);
  if (retryAfterMs !== null) delay = Math.min(Math.max(delay, retryAfterMs), LONGEST_MS);
  return new Date(now.getTime() + delay);
}

/** Retry-After as delta-seconds or an HTTP date (RFC 9110 §10.2.3); null when absent or unreadable. */
export function parseRetryAfter(value: string | string[] | undefined, now: Date): number | null {
  const raw = Array.isArray(value) ? value[0] : value;
  if (raw === undefined || raw.trim() === '') return null;
  if (/^\d+$/.test(raw.trim())) return Number(raw.trim()) * SECOND;
  const at = Date.parse(raw);
  return Number.isNaN(at) ? null : Math.max(0, at - now.getTime());
}
