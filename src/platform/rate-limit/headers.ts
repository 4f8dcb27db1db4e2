// Response headers for a decision, after the IETF RateLimit header fields draft (the lower-case
// `ratelimit-*` names with integer seconds), plus Retry-After on a refusal (RFC 9110).
import type { RateLimitDecision } from './decision.ts';

// A type alias, not an interface: only aliases are assignable to the index-signature records that
// Fastify's reply.headers() and ApiError's headers take.
export type RateLimitHeaders = {
  'ratelimit-limit': string;
  'ratelimit-remaining': string;
  'ratelimit-reset': string;
  'retry-after'?: string;
};

export function rateLimitHeaders(decision: RateLimitDecision): RateLimitHeaders {
  const headers: RateLimitHeaders = {
    'ratelimit-limit': String(decision.limit),
    'ratelimit-remaining': String(decision.remaining),
    'ratelimit-reset': String(decision.resetSeconds),
  };
  if (!decision.allowed) headers['retry-after'] = String(decision.retryAfterSeconds);
  return headers;
}
