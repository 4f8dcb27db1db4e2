// The circuit breaker in front of Redis counters, against a private redis-server this test starts
// on a port of its own: stopped, and frozen (SIGSTOP). After the first failures hits fail at once
// instead of each waiting for Redis; the state changes are reported once each; Redis back, the
// circuit closes by itself.
import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ManualClock } from '../../src/platform/clock.ts';
import { CircuitBreakerStore, type CircuitState } from '../../src/platform/rate-limit/circuit-breaker-store.ts';
import { CounterUnavailableError, RateLimiter } from '../../src/platform/rate-limit/index.ts';
import { RedisCounterStore } from '../../src/platform/rate-limit/redis-counter-store.ts';
import { testKeyPrefix } from './stores.ts';

const START = new Date('2026-01-01T00:00:00Z');
let port: number;
let server: ChildProcess | null = null;

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port: free } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(free));
    });
  });
}

async function startRedis(): Promise<void> {
  server = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
    stdio: 'ignore',
  });
  const client = new Redis({ port, host: '127.0.0.1', lazyConnect: true, retryStrategy: () => 50 });
  client.on('error', () => {});
  try {
    await vi.waitFor(async () => expect(await client.ping()).toBe('PONG'), { timeout: 10_000, interval: 50 });
  } finally {
    client.disconnect();
  }
}

async function stopRedis(): Promise<void> {
  const running = server;
  server = null;
  if (!running || running.exitCode !== null) return;
  const exited = new Promise((resolve) => running.once('exit', resolve));
  running.kill('SIGKILL');
  await exited;
}

beforeAll(async () => {
  port = await freePort();
  await startRedis();
});
afterAll(async () => {
  server?.kill('SIGCONT');
  await stopRedis();
});

/** A breaker over a Redis store whose connection is already made (a loaded machine may take longer
 * than the 200 ms timeout to connect, which would count as failures before the test begins). */
async function breakerOver() {
  const changes: CircuitState[] = [];
  const inner = new RedisCounterStore(`redis://127.0.0.1:${port}`, {
    keyPrefix: testKeyPrefix(),
    commandTimeoutMs: 200,
  });
  await vi.waitFor(() => inner.hit('warm-up', { nowMs: 0, endsAtMs: 1_000 }), { timeout: 10_000, interval: 50 });
  const store = new CircuitBreakerStore(inner, {
    failures: 2,
    openMs: 300,
    onStateChange: (state) => changes.push(state),
  });
  return { store, changes, limiter: new RateLimiter(store, new ManualClock(START)) };
}

async function timed(work: () => unknown): Promise<{ ms: number; error: unknown }> {
  const began = performance.now();
  try {
    await work();
    return { ms: performance.now() - began, error: null };
  } catch (error) {
    return { ms: performance.now() - began, error };
  }
}

describe('a circuit breaker in front of Redis counters', { timeout: 60_000 }, () => {
  it('stopped Redis: two failures open the circuit, then hits fail at once; back, it closes', async () => {
    const { store, changes, limiter } = await breakerOver();
    try {
      expect((await limiter.apiLimit(1, 100)).allowed).toBe(true);
      await stopRedis();
      for (let i = 0; i < 2; i++) {
        const { error } = await timed(() => limiter.apiLimit(1, 100));
        expect(error).toBeInstanceOf(CounterUnavailableError);
      }
      expect(store.state).toBe('open');
      // Open: twenty hits take under a quarter of what they would waiting 200 ms each.
      const fast = await timed(async () => {
        for (let i = 0; i < 20; i++)
          await expect(limiter.apiLimit(1, 100)).rejects.toBeInstanceOf(CounterUnavailableError);
      });
      expect(fast.ms).toBeLessThan(1_000); // without the breaker: 20 × 200 ms
      expect(changes).toEqual(['open']);

      await startRedis();
      await vi.waitFor(() => limiter.apiLimit(1, 100), { timeout: 10_000, interval: 50 });
      expect(store.state).toBe('closed');
      expect(changes).toEqual(['open', 'closed']);
    } finally {
      if (!server) await startRedis();
      await store.close();
    }
  });

  it('frozen Redis (SIGSTOP): after the first command timeouts nobody waits; thawed, it closes', async () => {
    const { store, changes, limiter } = await breakerOver();
    try {
      expect((await limiter.apiLimit(2, 100)).allowed).toBe(true);
      server!.kill('SIGSTOP');
      for (let i = 0; i < 2; i++) {
        const { ms, error } = await timed(() => limiter.apiLimit(2, 100));
        expect(error).toBeInstanceOf(CounterUnavailableError);
        expect(ms).toBeGreaterThanOrEqual(150); // waited for the 200 ms command timeout
      }
      expect(changes).toEqual(['open']);
      const fast = await timed(async () => {
        for (let i = 0; i < 20; i++)
          await expect(limiter.apiLimit(2, 100)).rejects.toBeInstanceOf(CounterUnavailableError);
      });
      expect(fast.ms).toBeLessThan(1_000); // without the breaker: 20 × 200 ms

      server!.kill('SIGCONT');
      await vi.waitFor(() => limiter.apiLimit(2, 100), { timeout: 10_000, interval: 50 });
      expect(changes).toEqual(['open', 'closed']);
    } finally {
      server?.kill('SIGCONT');
      await store.close();
    }
  });
});
