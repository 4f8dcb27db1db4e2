// A circuit breaker in front of the shared counters (Redis). Without it a stopped Redis costs every
// request a failed connection and a frozen one the whole command timeout (about 500 ms), each with
// a log line. After `failures` failures in a row the circuit opens: hits fail at once with
// CounterUnavailableError for `openMs`, then one hit probes Redis (the others still fail fast); its
// success closes the circuit. Each change of state is reported once (`onStateChange`), never per
// request. What a caller does with the error is its own rule: the API limit, the code-send limits
// and the webhook per-minute limits let the request through; billing reads answer 503.
import { CounterUnavailableError, type CounterStore, type CounterWindow } from './counter-store.ts';

export type CircuitState = 'closed' | 'open';

export interface CircuitBreakerOptions {
  /** Failures in a row that open the circuit. Default 2. */
  failures?: number;
  /** How long an open circuit fails hits without asking the store. Default 2,000 ms. */
  openMs?: number;
  /** Called once per change of state, with the error that opened it. */
  onStateChange?: (state: CircuitState, cause?: Error) => void;
  /** Called for each hit failed without asking the store (a metric). */
  onShortCircuit?: () => void;
  /** Monotonic milliseconds (tests pass their own). */
  now?: () => number;
}

export class CircuitBreakerStore implements CounterStore {
  readonly #inner: CounterStore;
  readonly #failuresToOpen: number;
  readonly #openMs: number;
  readonly #options: CircuitBreakerOptions;
  readonly #now: () => number;
  #state: CircuitState = 'closed';
  #failures = 0;
  #openUntil = 0;
  #probing = false;

  constructor(inner: CounterStore, options: CircuitBreakerOptions = {}) {
    this.#inner = inner;
    this.#failuresToOpen = options.failures ?? 2;
    this.#openMs = options.openMs ?? 2_000;
    this.#options = options;
    this.#now = options.now ?? (() => performance.now());
  }

  get state(): CircuitState {
    return this.#state;
  }

  hit(key: string, window: CounterWindow): number | Promise<number> {
    let probe = false;
    if (this.#state === 'open') {
      if (this.#probing || this.#now() < this.#openUntil) {
        this.#options.onShortCircuit?.();
        return Promise.reject(
          new CounterUnavailableError('rate-limit counters unavailable: Redis circuit open after repeated failures'),
        );
      }
      probe = this.#probing = true;
    }
    let result: number | Promise<number>;
    try {
      result = this.#inner.hit(key, window);
    } catch (error) {
      this.#failed(error as Error, probe);
      throw error;
    }
    if (!(result instanceof Promise)) {
      this.#succeeded(probe);
      return result;
    }
    return result.then(
      (count) => {
        this.#succeeded(probe);
        return count;
      },
      (error: unknown) => {
        this.#failed(error as Error, probe);
        throw error;
      },
    );
  }

  close(): Promise<void> {
    return this.#inner.close();
  }

  #succeeded(probe: boolean): void {
    if (probe) this.#probing = false;
    this.#failures = 0;
    if (this.#state === 'open') {
      this.#state = 'closed';
      this.#options.onStateChange?.('closed');
    }
  }

  #failed(error: Error, probe: boolean): void {
    if (probe) this.#probing = false;
    this.#failures++;
    if (this.#state === 'open') {
      if (probe) this.#openUntil = this.#now() + this.#openMs;
      return;
    }
    if (this.#failures >= this.#failuresToOpen) {
      this.#state = 'open';
      this.#openUntil = this.#now() + this.#openMs;
      this.#options.onStateChange?.('open', error);
    }
  }
}
