// Retry delays: exponential in the attempt number, capped, with jitter so that rows which failed
// together (a provider outage) do not all come back in the same second.
import { randomInt } from 'node:crypto';

export interface BackoffOptions {
  /** Delay after the first failed attempt. */
  baseMs: number;
  /** No delay is longer than this. */
  maxMs: number;
  /** 'full': uniform in [0, delay]; 'proportional': delay ±20%. */
  jitter: 'full' | 'proportional';
}

export const defaultBackoff: BackoffOptions = { baseMs: 10_000, maxMs: 3_600_000, jitter: 'proportional' };

/** Uniform in [0, 1) from node:crypto (the house rule for randomness). */
function cryptoRandom(): number {
  return randomInt(0, 2 ** 47) / 2 ** 47;
}

/** Milliseconds to wait after `attempts` failed attempts (attempts >= 1). */
export function retryDelayMs(attempts: number, backoff: BackoffOptions, random: () => number = cryptoRandom): number {
  // 2^(n-1) overflows to Infinity long before it matters; min() makes that the cap.
  const exponential = Math.min(backoff.maxMs, backoff.baseMs * 2 ** Math.max(0, attempts - 1));
  const jittered = backoff.jitter === 'full' ? exponential * random() : exponential * (0.8 + 0.4 * random());
  return Math.round(Math.min(backoff.maxMs, jittered));
}
