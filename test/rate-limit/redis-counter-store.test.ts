// What only the Redis store does: share counts across processes, expire its keys, and fail fast
// and typed when Redis is gone.
import { createConnection, createServer } from 'node:net';
import type { AddressInfo, Server, Socket } from 'node:net';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ManualClock } from '../../src/platform/clock.ts';
import type { CounterStore } from '../../src/platform/rate-limit/index.ts';
import {
  CounterUnavailableError,
  CircuitBreakerStore,
  createCounterStore,
  MemoryCounterStore,
  RateLimiter,
} from '../../src/platform/rate-limit/index.ts';
import { RedisCounterStore } from '../../src/platform/rate-limit/redis-counter-store.ts';
import { TEST_REDIS_URL, testKeyPrefix } from './stores.ts';

const START = '2026-01-15T12:00:00.000Z';
const startWindow = (windowSeconds: number) => Math.floor(new Date(START).getTime() / (windowSeconds * 1000));

describe('RedisCounterStore', () => {
  const opened: CounterStore[] = [];
  let inspector: Redis;

  function open(url: string, keyPrefix = testKeyPrefix()): RedisCounterStore {
    const store = new RedisCounterStore(url, { keyPrefix });
    opened.push(store);
    return store;
  }

  beforeAll(() => {
    inspector = new Redis(TEST_REDIS_URL);
  });

  afterEach(async () => {
    await Promise.all(opened.splice(0).map((store) => store.close()));
  });

  afterAll(async () => {
    await inspector.quit();
  });

  it('shares one count between two API processes', async () => {
    // Two stores (two connections) on one prefix, each under its own limiter and clock: what two
    // `herald api` processes with the same REDIS_URL look like.
    const prefix = testKeyPrefix();
    const first = new RateLimiter(open(TEST_REDIS_URL, prefix), new ManualClock(START));
    const second = new RateLimiter(open(TEST_REDIS_URL, prefix), new ManualClock(START));

    const decisions = [];
    for (let i = 0; i < 4; i++) decisions.push(await (i % 2 === 0 ? first : second).apiLimit(9, 3));
    expect(decisions.map((d) => [d.allowed, d.remaining])).toEqual([
      [true, 2],
      [true, 1],
      [true, 0],
      [false, 0],
    ]);

    // Concurrent hits from both are counted atomically: exactly `limit` get through.
    const burst = await Promise.all(
      Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? first : second).perMinute(9, 'burst', 7)),
    );
    expect(burst.filter((d) => d.allowed)).toHaveLength(7);
  });

  it('gives each counter a TTL of what is left of its window plus a margin', async () => {
    const prefix = testKeyPrefix();
    const clock = new ManualClock('2026-01-15T12:00:45.000Z');
    const limiter = new RateLimiter(open(TEST_REDIS_URL, prefix), clock);
    await limiter.perMinute(10, 'ttl', 5);
    await limiter.perMinute(10, 'ttl', 5);

    const key = `${prefix}min:ttl:10:60:${startWindow(60)}`;
    expect(await inspector.get(key)).toBe('2');
    const ttl = await inspector.pttl(key);
    // 15 s left in the window + the 5 s default margin; the second hit did not extend it.
    expect(ttl).toBeGreaterThan(15_000);
    expect(ttl).toBeLessThanOrEqual(20_000);
  });

  it('rejects with CounterUnavailableError, quickly, when Redis cannot be reached', async () => {
    const limiter = new RateLimiter(open('redis://127.0.0.1:1'), new ManualClock(START));
    for (let attempt = 0; attempt < 3; attempt++) {
      const began = performance.now();
      const error = await Promise.resolve(limiter.perMinute(11, 'billing-reads', 60)).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(CounterUnavailableError);
      expect(performance.now() - began).toBeLessThan(1_000);
    }
  });

  it('fails fast while Redis is down and recovers when it is back', async () => {
    const proxy = await RedisProxy.start(new URL(TEST_REDIS_URL));
    try {
      const limiter = new RateLimiter(open(proxy.url), new ManualClock(START));
      expect((await limiter.apiLimit(13, 100)).allowed).toBe(true);

      await proxy.stop();
      for (let attempt = 0; attempt < 3; attempt++) {
        const began = performance.now();
        await expect(limiter.apiLimit(13, 100)).rejects.toBeInstanceOf(CounterUnavailableError);
        expect(performance.now() - began).toBeLessThan(1_000);
      }

      await proxy.resume();
      // ioredis reconnects on its own backoff (real time); the count kept in Redis survives.
      const decision = await vi.waitFor(() => limiter.apiLimit(13, 100), { timeout: 5_000, interval: 50 });
      expect(decision.remaining).toBeLessThanOrEqual(98);
    } finally {
      await proxy.stop();
    }
  });

  it('gives up on a Redis that stops answering after the command timeout', async () => {
    const proxy = await RedisProxy.start(new URL(TEST_REDIS_URL));
    try {
      const limiter = new RateLimiter(open(proxy.url), new ManualClock(START));
      expect((await limiter.apiLimit(14, 100)).allowed).toBe(true);

      proxy.freeze();
      const began = performance.now();
      await expect(limiter.apiLimit(14, 100)).rejects.toBeInstanceOf(CounterUnavailableError);
      const waited = performance.now() - began;
      expect(waited).toBeGreaterThanOrEqual(400); // it did wait for an answer ...
      expect(waited).toBeLessThan(1_500); // ... but only about the 500 ms command timeout
    } finally {
      await proxy.stop();
    }
  });

  it('rejects with CounterUnavailableError once closed', async () => {
    const store = open(TEST_REDIS_URL);
    const limiter = new RateLimiter(store, new ManualClock(START));
    expect((await limiter.apiLimit(12, 1)).allowed).toBe(true);
    await store.close();
    await expect(limiter.apiLimit(12, 1)).rejects.toBeInstanceOf(CounterUnavailableError);
  });

  it('is what createCounterStore builds when a Redis URL is configured (behind a circuit breaker)', async () => {
    const redis = await createCounterStore(TEST_REDIS_URL);
    const memory = await createCounterStore(null);
    try {
      expect(redis).toBeInstanceOf(CircuitBreakerStore);
      expect(memory).toBeInstanceOf(MemoryCounterStore);
    } finally {
      await redis.close();
      await memory.close();
    }
  });
});

/** A TCP relay to the test Redis that can be cut and restored on the same port, to take Redis
 * away from a connected client without touching the shared server. */
class RedisProxy {
  readonly #target: URL;
  readonly #sockets = new Set<Socket>();
  #server: Server | null = null;
  #port = 0;
  #frozen = false;

  private constructor(target: URL) {
    this.#target = target;
  }

  static async start(target: URL): Promise<RedisProxy> {
    const proxy = new RedisProxy(target);
    await proxy.resume();
    return proxy;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.#port}`;
  }

  async resume(): Promise<void> {
    const server = createServer((client) => {
      const upstream = createConnection(Number(this.#target.port || 6379), this.#target.hostname);
      for (const socket of [client, upstream]) {
        this.#sockets.add(socket);
        socket.on('close', () => this.#sockets.delete(socket));
        socket.on('error', () => socket.destroy());
      }
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
      // Relayed by hand rather than piped, so freeze() can swallow traffic on live connections.
      client.on('data', (chunk) => this.#frozen || upstream.write(chunk));
      upstream.on('data', (chunk) => this.#frozen || client.write(chunk));
    });
    await new Promise<void>((resolve) => server.listen(this.#port, '127.0.0.1', resolve));
    this.#port = (server.address() as AddressInfo).port;
    this.#server = server;
  }

  /** Keeps connections open but answers nothing: a Redis that hangs rather than refuses. */
  freeze(): void {
    this.#frozen = true;
  }

  async stop(): Promise<void> {
    const server = this.#server;
    if (server === null) return;
    this.#server = null;
    for (const socket of this.#sockets) socket.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
