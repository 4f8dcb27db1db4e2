// Every behaviour of the limiter, run against both counter stores.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/platform/clock.ts';
import type { CounterStore } from '../../src/platform/rate-limit/index.ts';
import { RateLimiter, rateLimitHeaders } from '../../src/platform/rate-limit/index.ts';
import { storeKinds } from './stores.ts';

// On a minute boundary, so per-second and per-minute windows both start here.
const START = '2026-01-15T12:00:00.000Z';

describe.each(storeKinds)('RateLimiter over the $name store', (kind) => {
  let store: CounterStore;
  let clock: ManualClock;
  let limiter: RateLimiter;

  beforeEach(() => {
    store = kind.open();
    clock = new ManualClock(START);
    limiter = new RateLimiter(store, clock);
  });

  afterEach(async () => {
    await store.close();
  });

  it('allows exactly `limit` hits in a window and refuses the next', async () => {
    for (let i = 1; i <= 5; i++) {
      const decision = await limiter.apiLimit(1, 5);
      expect(decision).toEqual({ allowed: true, limit: 5, remaining: 5 - i, resetSeconds: 1 });
    }
    const refused = await limiter.apiLimit(1, 5);
    expect(refused).toEqual({ allowed: false, limit: 5, remaining: 0, resetSeconds: 1, retryAfterSeconds: 1 });
    // Still refused for the rest of the window, however many more hits arrive.
    clock.advance(999);
    expect((await limiter.apiLimit(1, 5)).allowed).toBe(false);
  });

  it('starts a fresh window when the clock moves into the next one', async () => {
    clock.advance(400); // mid-window: the window still ends on the whole second
    for (let i = 0; i < 3; i++) expect((await limiter.apiLimit(7, 3)).allowed).toBe(true);
    expect((await limiter.apiLimit(7, 3)).allowed).toBe(false);

    clock.advance(600);
    const next = await limiter.apiLimit(7, 3);
    expect(next).toEqual({ allowed: true, limit: 3, remaining: 2, resetSeconds: 1 });
  });

  it('keeps separate keys independent', async () => {
    expect((await limiter.apiLimit(1, 1)).allowed).toBe(true);
    expect((await limiter.apiLimit(1, 1)).allowed).toBe(false);

    // Another team, the same team's per-minute limits, and another named limit all count apart.
    expect((await limiter.apiLimit(2, 1)).allowed).toBe(true);
    expect((await limiter.perMinute(1, 'webhook-create', 1)).allowed).toBe(true);
    expect((await limiter.perMinute(1, 'webhook-test', 1)).allowed).toBe(true);
    expect((await limiter.perMinute(2, 'webhook-create', 1)).allowed).toBe(true);
    expect((await limiter.perMinute(1, 'webhook-create', 1)).allowed).toBe(false);
    // A limit of the same key with another window length is another counter.
    expect((await limiter.hit('api:1', 1, 10)).allowed).toBe(true);
  });

  it('turns decisions into RateLimit headers: remaining counts down, retry-after only when refused', async () => {
    clock.advance(20_000);
    const seen = [];
    for (let i = 0; i < 3; i++) seen.push(rateLimitHeaders(await limiter.perMinute(3, 'webhook-retry', 2)));
    expect(seen).toEqual([
      { 'ratelimit-limit': '2', 'ratelimit-remaining': '1', 'ratelimit-reset': '40' },
      { 'ratelimit-limit': '2', 'ratelimit-remaining': '0', 'ratelimit-reset': '40' },
      { 'ratelimit-limit': '2', 'ratelimit-remaining': '0', 'ratelimit-reset': '40', 'retry-after': '40' },
    ]);

    // Part of a second left rounds up: never a reset or retry-after of 0.
    clock.set('2026-01-15T12:00:59.900Z');
    const last = rateLimitHeaders(await limiter.perMinute(3, 'webhook-retry', 2));
    expect(last['ratelimit-reset']).toBe('1');
    expect(Number(last['retry-after'])).toBeGreaterThanOrEqual(1);
  });

  it('aligns per-minute windows to the clock minute', async () => {
    clock.set('2026-01-15T12:00:30.000Z');
    expect(await limiter.perMinute(4, 'rotate', 2)).toMatchObject({ allowed: true, remaining: 1, resetSeconds: 30 });
    clock.set('2026-01-15T12:00:59.999Z');
    expect(await limiter.perMinute(4, 'rotate', 2)).toMatchObject({ allowed: true, remaining: 0, resetSeconds: 1 });
    expect(await limiter.perMinute(4, 'rotate', 2)).toMatchObject({ allowed: false, retryAfterSeconds: 1 });
    // 12:01:00 is a new minute, although only 30 s have passed since the first hit.
    clock.set('2026-01-15T12:01:00.000Z');
    expect(await limiter.perMinute(4, 'rotate', 2)).toMatchObject({ allowed: true, remaining: 1, resetSeconds: 60 });
  });

  it('shares a global per-minute limit between every team and keeps it apart from team limits', async () => {
    // Invoice reads: 20 per minute per team within a shared limit (3 here, to keep it short).
    expect((await limiter.perMinuteGlobal('invoice-reads', 3)).remaining).toBe(2);
    expect((await limiter.perMinuteGlobal('invoice-reads', 3)).remaining).toBe(1);
    expect((await limiter.perMinute(5, 'invoice-reads', 20)).remaining).toBe(19);
    expect((await limiter.perMinuteGlobal('invoice-reads', 3)).remaining).toBe(0);
    expect((await limiter.perMinuteGlobal('invoice-reads', 3)).allowed).toBe(false);
    clock.advance(60_000);
    expect((await limiter.perMinuteGlobal('invoice-reads', 3)).allowed).toBe(true);
  });

  it('shares counts between limiters on one store', async () => {
    const other = new RateLimiter(store, new ManualClock(START));
    expect((await limiter.apiLimit(6, 2)).allowed).toBe(true);
    expect((await other.apiLimit(6, 2)).allowed).toBe(true);
    expect((await limiter.apiLimit(6, 2)).allowed).toBe(false);
  });

  it('refuses everything under a limit of 0', async () => {
    expect(await limiter.apiLimit(8, 0)).toMatchObject({ allowed: false, remaining: 0, retryAfterSeconds: 1 });
  });

  it('rejects limits and windows that are not whole numbers', async () => {
    expect(() => limiter.hit('x', -1, 1)).toThrow(RangeError);
    expect(() => limiter.hit('x', 1.5, 1)).toThrow(RangeError);
    expect(() => limiter.hit('x', 1, 0)).toThrow(RangeError);
    expect(() => limiter.hit('x', 1, 0.5)).toThrow(RangeError);
  });
});
