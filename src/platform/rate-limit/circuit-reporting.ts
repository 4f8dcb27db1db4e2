// How the Redis circuit's changes reach the operator: one log line per change of state and two
// metrics, never a line per request. What each caller does meanwhile is its own rule: the API limit,
// the code-send limits and the webhook per-minute limits let requests through (a Redis outage must
// not stop the API); billing reads answer 503 (the contract never answers them 429 on a guess).
import { Counter, Gauge, type Registry } from 'prom-client';
import type { CircuitBreakerOptions } from './circuit-breaker-store.ts';

interface CircuitLogger {
  warn(fields: object, message: string): void;
  info(fields: object, message: string): void;
}

export function reportedCircuit(logger: CircuitLogger, registry: Registry): CircuitBreakerOptions {
  const open = new Gauge({
    name: 'herald_rate_limit_redis_circuit_open',
    help: '1 while the circuit in front of the Redis rate-limit counters is open',
    registers: [registry],
  });
  const shortCircuited = new Counter({
    name: 'herald_rate_limit_redis_short_circuited_total',
    help: 'Rate-limit counter hits failed at once, without asking Redis, while the circuit was open',
    registers: [registry],
  });
  return {
    onStateChange(state, cause) {
      open.set(state === 'open' ? 1 : 0);
      if (state === 'open') {
        logger.warn(
          { reason: cause?.message },
          'Redis rate-limit counters unreachable; circuit open: API, code-send and webhook per-minute limits not enforced, billing reads answer 503, until Redis answers again',
        );
      } else {
        logger.info({}, 'Redis rate-limit counters answer again; circuit closed');
      }
    },
    onShortCircuit: () => shortCircuited.inc(),
  };
}
