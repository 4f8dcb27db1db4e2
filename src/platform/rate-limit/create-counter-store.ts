// Picks the counter store from configuration: Redis when REDIS_URL is set (several API processes
// share the counts), memory otherwise.
import type { CounterStore } from './counter-store.ts';
import { MemoryCounterStore } from './memory-counter-store.ts';
import { RedisCounterStore } from './redis-counter-store.ts';
import type { RedisCounterStoreOptions } from './redis-counter-store.ts';

export function createCounterStore(
  redisUrl: string | null | undefined,
  redisOptions: RedisCounterStoreOptions = {},
): CounterStore {
  return redisUrl ? new RedisCounterStore(redisUrl, redisOptions) : new MemoryCounterStore();
}
