// The memory store must not grow without bound: windows that are over go.
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/platform/clock.ts';
import { MemoryCounterStore, RateLimiter } from '../../src/platform/rate-limit/index.ts';

describe('MemoryCounterStore', () => {
  it('drops expired windows', async () => {
    const store = new MemoryCounterStore();
    const clock = new ManualClock('2026-01-15T12:00:00.000Z');
    const limiter = new RateLimiter(store, clock);

    for (let team = 1; team <= 50; team++) await limiter.apiLimit(team, 10);
    await limiter.perMinute(1, 'webhook-create', 20);
    expect(store.size).toBe(51);

    // Past the per-second windows, inside the per-minute one.
    clock.advance(1_000);
    await limiter.apiLimit(1, 10);
    expect(store.size).toBe(2);

    // A minute of steady traffic holds about one window per key, not one per second.
    for (let second = 0; second < 60; second++) {
      clock.advance(1_000);
      await limiter.apiLimit(1, 10);
    }
    expect(store.size).toBe(1);
    await store.close();
  });

  it('sweeps at most once per interval, and counts correctly in between', async () => {
    const store = new MemoryCounterStore({ sweepIntervalMs: 10_000 });
    const clock = new ManualClock('2026-01-15T12:00:00.000Z');
    const limiter = new RateLimiter(store, clock);

    await limiter.apiLimit(1, 1);
    clock.advance(1_000);
    // The old window has expired but waits for the next sweep; the new window counts from 1.
    expect(await limiter.apiLimit(1, 1)).toMatchObject({ allowed: true, remaining: 0 });
    expect(store.size).toBe(2);
    clock.advance(9_000);
    await limiter.apiLimit(1, 1);
    expect(store.size).toBe(1);
    await store.close();
  });
});
