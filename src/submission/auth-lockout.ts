// Failed AUTH attempts per client address: 10 in a 10-minute window and the address is answered
// 421 4.7.0 until the window ends (a fixed window aligned to the clock, as every rate limit here).
// The address is kept only as a keyed hash (HMAC 'client-ip', as SMS and codes keep client IPs):
// nothing that names a client is held or logged. The count is the rate limiter's, so with REDIS_URL
// every process counts an address's failures together; the lock itself is remembered by the process
// that saw the failure that reached the limit (another process locks the address at its own next
// failure). With the counters unreachable, this process counts alone rather than not at all.
import ipaddr from 'ipaddr.js';
import type { Clock } from '../platform/clock.ts';
import type { Secrets } from '../platform/crypto.ts';
import { CounterUnavailableError, MemoryCounterStore, RateLimiter } from '../platform/rate-limit/index.ts';

export interface LockoutLimits {
  /** Failures in one window that lock the address for the rest of it. */
  maxFailures: number;
  windowSeconds: number;
}

export const defaultLockoutLimits: LockoutLimits = { maxFailures: 10, windowSeconds: 600 };

/** IPv4-mapped IPv6 as its IPv4 address, IPv6 in one canonical form: one client, one key. */
function canonical(remoteAddress: string): string {
  return ipaddr.isValid(remoteAddress) ? ipaddr.process(remoteAddress).toNormalizedString() : remoteAddress;
}

export class AuthLockout {
  readonly #secrets: Secrets;
  readonly #clock: Clock;
  readonly #shared: RateLimiter;
  readonly #alone: RateLimiter;
  readonly #limits: LockoutLimits;
  /** Locked addresses (their hashes) and when their window ends, in ms. */
  readonly #locked = new Map<string, number>();

  constructor(options: { secrets: Secrets; clock: Clock; rateLimiter: RateLimiter; limits?: LockoutLimits }) {
    this.#secrets = options.secrets;
    this.#clock = options.clock;
    this.#shared = options.rateLimiter;
    this.#alone = new RateLimiter(new MemoryCounterStore(), options.clock);
    this.#limits = options.limits ?? defaultLockoutLimits;
  }

  /** The keyed hash an address is known by; also what the logs may show of it. */
  clientKey(remoteAddress: string): string {
    return this.#secrets.hmac('client-ip', canonical(remoteAddress)).toString('base64url').slice(0, 16);
  }

  /** Whether the address is locked out now. */
  isLocked(remoteAddress: string): boolean {
    const key = this.clientKey(remoteAddress);
    const until = this.#locked.get(key);
    if (until === undefined) return false;
    if (until > this.#clock.now().getTime()) return true;
    this.#locked.delete(key);
    return false;
  }

  /** Counts a failed attempt; true when it locked the address. */
  async failed(remoteAddress: string): Promise<boolean> {
    const key = this.clientKey(remoteAddress);
    const { maxFailures, windowSeconds } = this.#limits;
    const name = `smtp-auth:${key}`;
    let decision;
    try {
      decision = await this.#shared.hit(name, maxFailures, windowSeconds);
    } catch (error) {
      if (!(error instanceof CounterUnavailableError)) throw error;
      decision = await this.#alone.hit(name, maxFailures, windowSeconds);
    }
    // `remaining` is what is left after this hit: none left, and the next attempt would be past the limit.
    if (decision.remaining > 0) return false;
    this.#sweep();
    this.#locked.set(key, this.#clock.now().getTime() + decision.resetSeconds * 1000);
    return true;
  }

  /** Drops ended locks now and then, so the map holds only the addresses locked now. */
  #sweep(): void {
    if (this.#locked.size < 1024) return;
    const now = this.#clock.now().getTime();
    for (const [key, until] of this.#locked) if (until <= now) this.#locked.delete(key);
  }
}
