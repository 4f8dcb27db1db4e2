// Counters in Redis, shared by every API process of a deployment (REDIS_URL).
import { createHash } from 'node:crypto';
import { Redis } from 'ioredis';
import { CounterUnavailableError } from './counter-store.ts';
import type { CounterStore, CounterWindow } from './counter-store.ts';

// INCR and the expiry in one atomic step and one round trip: a process dying between two separate
// commands would leave a counter that never expires. Only the first hit sets the expiry, so later
// hits do not push the end of the window back.
const HIT_SCRIPT = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
end
return count
`;
const HIT_SCRIPT_SHA = createHash('sha1').update(HIT_SCRIPT).digest('hex');

export interface RedisCounterStoreOptions {
  /** Prepended to every key; tests use a random one per run. */
  keyPrefix?: string;
  /** Longest a hit may wait for Redis, connecting included. */
  commandTimeoutMs?: number;
  /** Extra life for a counter past its window's end, covering clock skew between processes and
   * the gap between the limiter's clock and Redis's real-time expiry. */
  expiryMarginMs?: number;
  /** Connection errors; ioredis reports every failed reconnect here. */
  onError?: (error: Error) => void;
}

export class RedisCounterStore implements CounterStore {
  readonly #client: Redis;
  readonly #keyPrefix: string;
  readonly #timeoutMs: number;
  readonly #marginMs: number;

  constructor(url: string, options: RedisCounterStoreOptions = {}) {
    this.#keyPrefix = options.keyPrefix ?? 'herald:rl:';
    this.#timeoutMs = options.commandTimeoutMs ?? 500;
    this.#marginMs = options.expiryMarginMs ?? 5_000;
    this.#client = new Redis(url, {
      // A dead Redis must cost a request milliseconds, not hang it: no queueing while
      // disconnected, one retry, and a short timeout on every command.
      lazyConnect: true,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      commandTimeout: this.#timeoutMs,
      connectTimeout: Math.max(1_000, this.#timeoutMs),
    });
    // Without a listener ioredis prints every failed reconnect; callers learn of the outage
    // through CounterUnavailableError instead.
    const onError = options.onError;
    this.#client.on('error', (error: Error) => onError?.(error));
  }

  async hit(key: string, window: CounterWindow): Promise<number> {
    await this.#connected();
    // Redis expires in real time while windows follow the limiter's clock: the TTL is what is
    // left of the window by that clock, plus the margin. The window index is part of the key, so
    // a clock moved into the next window (in tests, or on a process whose clock runs ahead) gets
    // a fresh counter whatever the TTL of the old one.
    const ttlMs = Math.max(1, Math.ceil(window.endsAtMs - window.nowMs)) + this.#marginMs;
    try {
      return Number(await this.#runHitScript(this.#keyPrefix + key, ttlMs));
    } catch (error) {
      throw new CounterUnavailableError(`rate-limit counter could not be updated: ${(error as Error).message}`, {
        cause: error,
      });
    }
  }

  async close(): Promise<void> {
    if (this.#client.status === 'end') return;
    if (this.#client.status === 'ready') {
      try {
        await this.#client.quit();
        return;
      } catch {
        // fall through: drop the connection instead
      }
    }
    this.#client.disconnect();
  }

  async #runHitScript(key: string, ttlMs: number): Promise<unknown> {
    try {
      return await this.#client.evalsha(HIT_SCRIPT_SHA, 1, key, ttlMs);
    } catch (error) {
      // The script cache is empty after a Redis restart or on a new server; send the text once.
      if (!(error instanceof Error) || !error.message.includes('NOSCRIPT')) throw error;
      return await this.#client.eval(HIT_SCRIPT, 1, key, ttlMs);
    }
  }

  /** Waits for a connection being made (first use, or a reconnect under way) up to the timeout;
   * fails at once when Redis is known to be down, so an outage answers fast. */
  async #connected(): Promise<void> {
    const client = this.#client;
    switch (client.status) {
      case 'ready':
        return;
      case 'wait':
        // The outcome is observed through the events below.
        client.connect().catch(() => {});
        break;
      case 'connecting':
      case 'connect':
        break;
      default:
        throw new CounterUnavailableError(`rate-limit counters unavailable: Redis connection is ${client.status}`);
    }
    await new Promise<void>((resolve, reject) => {
      const settle = (error?: Error): void => {
        clearTimeout(timer);
        client.off('ready', onReady);
        client.off('error', onError);
        client.off('close', onClose);
        if (error) reject(error);
        else resolve();
      };
      const onReady = (): void => settle();
      const onError = (error: Error): void =>
        settle(new CounterUnavailableError(`rate-limit counters unavailable: ${error.message}`, { cause: error }));
      const onClose = (): void =>
        settle(new CounterUnavailableError('rate-limit counters unavailable: Redis connection closed'));
      const timer = setTimeout(
        () =>
          settle(
            new CounterUnavailableError(
              `rate-limit counters unavailable: no Redis connection within ${this.#timeoutMs} ms`,
            ),
          ),
        this.#timeoutMs,
      );
      client.on('ready', onReady);
      client.on('error', onError);
      client.on('close', onClose);
    });
  }
}
