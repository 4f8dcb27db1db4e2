// The two counter stores the rate-limit suites run against. Each store opened here gets a key
// prefix of its own, so parallel workers and repeated runs (which all start their ManualClock at
// the same instant, hence the same window keys) never share a Redis counter.
import { randomUUID } from 'node:crypto';
import type { CounterStore } from '../../src/platform/rate-limit/index.ts';
import { MemoryCounterStore } from '../../src/platform/rate-limit/index.ts';
import { RedisCounterStore } from '../../src/platform/rate-limit/redis-counter-store.ts';

export const TEST_REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

export function testKeyPrefix(): string {
  return `herald:rl:test:${randomUUID()}:`;
}

export interface StoreKind {
  name: string;
  open(): CounterStore;
}

export const storeKinds: StoreKind[] = [
  { name: 'memory', open: () => new MemoryCounterStore() },
  { name: 'redis', open: () => new RedisCounterStore(TEST_REDIS_URL, { keyPrefix: testKeyPrefix() }) },
];
