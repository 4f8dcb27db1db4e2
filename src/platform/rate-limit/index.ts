// Rate limits: fixed windows over memory or Redis counters. Build one store per process with
// createCounterStore(config.redisUrl) and one RateLimiter on it.
export { CounterUnavailableError } from './counter-store.ts';
export type { CounterStore, CounterWindow } from './counter-store.ts';
export { MemoryCounterStore } from './memory-counter-store.ts';
export type { MemoryCounterStoreOptions } from './memory-counter-store.ts';
export type { RedisCounterStoreOptions } from './redis-counter-store.ts';
export { createCounterStore } from './create-counter-store.ts';
export { CircuitBreakerStore } from './circuit-breaker-store.ts';
export type { CircuitBreakerOptions, CircuitState } from './circuit-breaker-store.ts';
export { RateLimiter } from './rate-limiter.ts';
export type { TeamId } from './rate-limiter.ts';
export { strictestDecision } from './decision.ts';
export type { RateLimitDecision } from './decision.ts';
export { rateLimitHeaders } from './headers.ts';
export type { RateLimitHeaders } from './headers.ts';
