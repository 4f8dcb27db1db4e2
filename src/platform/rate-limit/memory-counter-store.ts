// Counters in a Map, for a single API process (the default without REDIS_URL).
import type { CounterStore, CounterWindow } from './counter-store.ts';

interface Counter {
  count: number;
  expiresAtMs: number;
}

export interface MemoryCounterStoreOptions {
  /** How often, in clock time, a hit also sweeps out expired windows. */
  sweepIntervalMs?: number;
}

export class MemoryCounterStore implements CounterStore {
  readonly #counters = new Map<string, Counter>();
  readonly #sweepIntervalMs: number;
  #nextSweepAtMs = Number.NEGATIVE_INFINITY;

  constructor(options: MemoryCounterStoreOptions = {}) {
    this.#sweepIntervalMs = options.sweepIntervalMs ?? 1_000;
  }

  hit(key: string, window: CounterWindow): number {
    // Window keys carry their window index, so every window is a new key; without the sweep the
    // map would keep one entry per team per window forever. Sweeping on access (at most once per
    // interval) needs no timer and uses the limiter's clock, so tests can drive it; an idle
    // process keeps at most what it held at its last hit.
    if (window.nowMs >= this.#nextSweepAtMs) this.#sweep(window.nowMs);
    const counter = this.#counters.get(key);
    if (counter === undefined || counter.expiresAtMs <= window.nowMs) {
      this.#counters.set(key, { count: 1, expiresAtMs: window.endsAtMs });
      return 1;
    }
    counter.count += 1;
    return counter.count;
  }

  /** Number of windows held; exposed so tests can see expired windows go. */
  get size(): number {
    return this.#counters.size;
  }

  async close(): Promise<void> {
    this.#counters.clear();
  }

  #sweep(nowMs: number): void {
    for (const [key, counter] of this.#counters) {
      if (counter.expiresAtMs <= nowMs) this.#counters.delete(key);
    }
    this.#nextSweepAtMs = nowMs + this.#sweepIntervalMs;
  }
}
