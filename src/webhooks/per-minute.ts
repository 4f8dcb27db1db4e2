// The contract's per-minute limits on webhook operations (creations, tests, rotations, retries):
// 429 RATE_LIMITED with Retry-After once a team used its minute.
import type { FastifyReply } from 'fastify';
import { ApiError } from '../platform/errors.ts';
import { CounterUnavailableError, type RateLimiter } from '../platform/rate-limit/index.ts';

/** Contract, Limits: per team and minute. */
export const PER_MINUTE = {
  creations: 20,
  tests: 10,
  rotations: 10,
  retries: 30,
} as const;

export async function enforcePerMinute(
  limiter: RateLimiter,
  reply: FastifyReply,
  teamId: number,
  name: string,
  limit: number,
): Promise<void> {
  let decision;
  try {
    decision = await limiter.perMinute(teamId, name, limit);
  } catch (error) {
    // Shared counters unreachable: like the API limit, serve rather than refuse every call.
    if (error instanceof CounterUnavailableError) return;
    throw error;
  }
  if (decision.allowed) return;
  reply.header('retry-after', String(decision.retryAfterSeconds));
  throw new ApiError(
    429,
    'RATE_LIMITED',
    `At most ${limit} ${name.replace('webhook-', 'webhook ')} a minute; retry after ${decision.retryAfterSeconds} s`,
  );
}
