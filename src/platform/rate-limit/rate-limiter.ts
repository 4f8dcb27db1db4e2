// Fixed-window rate limits over a CounterStore. Windows are aligned to the clock (every process
// agrees where a window starts without talking to the others) and the window index is part of the
// counter key, so a new window is simply a new counter.
import type { Clock } from '../clock.ts';
import { systemClock } from '../clock.ts';
import type { CounterStore } from './counter-store.ts';
import type { RateLimitDecision } from './decision.ts';

/** Teams are numbered in the database; strings are accepted so keys can name other tenants. */
export type TeamId = number | string;

export class RateLimiter {
  readonly #store: CounterStore;
  readonly #clock: Clock;

  constructor(store: CounterStore, clock: Clock = systemClock) {
    this.#store = store;
    this.#clock = clock;
  }

  /** Counts one hit on `key` and says whether it fits in `limit` per `windowSeconds`. Rejects with
   * CounterUnavailableError when the store cannot be reached. */
  hit(key: string, limit: number, windowSeconds: number): RateLimitDecision | Promise<RateLimitDecision> {
    if (!Number.isInteger(limit) || limit < 0)
      throw new RangeError(`rate limit must be a non-negative integer, got ${limit}`);
    if (!Number.isInteger(windowSeconds) || windowSeconds < 1) {
      throw new RangeError(`rate-limit window must be a positive whole number of seconds, got ${windowSeconds}`);
    }
    const nowMs = this.#clock.now().getTime();
    const windowMs = windowSeconds * 1000;
    const windowIndex = Math.floor(nowMs / windowMs);
    const endsAtMs = (windowIndex + 1) * windowMs;
    const count = this.#store.hit(`${key}:${windowSeconds}:${windowIndex}`, { nowMs, endsAtMs });
    // Synchronous stores (memory) get a synchronous answer; see CounterStore.hit.
    return typeof count === 'number'
      ? decide(count, limit, nowMs, endsAtMs)
      : count.then((n) => decide(n, limit, nowMs, endsAtMs));
  }

  /** The per-team per-second API rate limit (the team's `apiRateLimit`). */
  apiLimit(teamId: TeamId, perSecond: number): RateLimitDecision | Promise<RateLimitDecision> {
    return this.hit(`api:${teamId}`, perSecond, 1);
  }

  /** A named per-team limit per minute, e.g. webhook creations, 20 per minute per team. */
  perMinute(teamId: TeamId, name: string, limit: number): RateLimitDecision | Promise<RateLimitDecision> {
    return this.hit(`min:${name}:${teamId}`, limit, 60);
  }

  /** A named limit per minute shared by every team. Its own key prefix, so no team id can collide
   * with it. */
  perMinuteGlobal(name: string, limit: number): RateLimitDecision | Promise<RateLimitDecision> {
    return this.hit(`min-global:${name}`, limit, 60);
  }
}

function decide(count: number, limit: number, nowMs: number, endsAtMs: number): RateLimitDecision {
  const resetSeconds = Math.max(1, Math.ceil((endsAtMs - nowMs) / 1000));
  const remaining = Math.max(0, limit - count);
  if (count <= limit) return { allowed: true, limit, remaining, resetSeconds };
  // A fixed window refuses until it ends, so retry-after is the reset.
  return { allowed: false, limit, remaining, resetSeconds, retryAfterSeconds: resetSeconds };
}
