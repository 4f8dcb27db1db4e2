// Picks the counter store from configuration: Redis when REDIS_URL is set (several API processes
// share the counts), behind a circuit breaker so an outage costs requests nothing; memory otherwise.
// The Redis client's package is read only when REDIS_URL is set.
import { CircuitBreakerStore, type CircuitBreakerOptions } from './circuit-breaker-store.ts';
import type { CounterStore } from './counter-store.ts';
import { MemoryCounterStore } from './memory-counter-store.ts';
import type { RedisCounterStoreOptions } from './redis-counter-store.ts';

export async function createCounterStore(
  redisUrl: string | null | undefined,
  redisOptions: RedisCounterStoreOptions = {},
  breaker: CircuitBreakerOptions = {},
): Promise<CounterStore> {
  if (!redisUrl) return new MemoryCounterStore();
  const { RedisCounterStore } = await import('./redis-counter-store.ts');
  return new CircuitBreakerStore(new RedisCounterStore(redisUrl, redisOptions), breaker);
}
