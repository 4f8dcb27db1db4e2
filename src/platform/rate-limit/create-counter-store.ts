// Picks the counter store from configuration: Redis when REDIS_URL is set (several API processes
// share the counts), behind a circuit breaker so an outage costs requests nothing; memory otherwise.
import { CircuitBreakerStore, type CircuitBreakerOptions } from './circuit-breaker-store.ts';
import type { CounterStore } from './counter-store.ts';
import { MemoryCounterStore } from './memory-counter-store.ts';
import { RedisCounterStore } from './redis-counter-store.ts';
import type { RedisCounterStoreOptions } from './redis-counter-store.ts';

export function createCounterStore(
  redisUrl: string | null | undefined,
  redisOptions: RedisCounterStoreOptions = {},
  breaker: CircuitBreakerOptions = {},
): CounterStore {
  return redisUrl
    ? new CircuitBreakerStore(new RedisCounterStore(redisUrl, redisOptions), breaker)
    : new MemoryCounterStore();
}
