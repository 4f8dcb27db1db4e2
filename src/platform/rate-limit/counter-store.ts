// The storage behind the rate limiter: one counter per window, created by its first hit and
// forgotten once the window is over. Memory serves a single process; Redis lets several API
// processes share one count (REDIS_URL).

/** Where a window stands, by the limiter's clock. Stores never read a clock of their own, so a
 * ManualClock in tests moves every store alike. */
export interface CounterWindow {
  nowMs: number;
  endsAtMs: number;
}

export interface CounterStore {
  /** Adds one to the counter of `key` and returns the count including this hit. The counter must
   * live at least until `window.endsAtMs`. Rejects with CounterUnavailableError when the count
   * cannot be kept. The memory store answers synchronously: the API limit sits on every request,
   * and a promise per hit was a measurable share of an authenticated no-op. */
  hit(key: string, window: CounterWindow): number | Promise<number>;
  close(): Promise<void>;
}

/** The counters cannot be reached. Callers choose: billing reads answer 503 (the contract never
 * answers them 429 on a guess), other routes may let the request through. */
export class CounterUnavailableError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'CounterUnavailableError';
  }
}
