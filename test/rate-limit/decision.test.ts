// Folding several limits into the one decision a response reports.
import { describe, expect, it } from 'vitest';
import type { RateLimitDecision } from '../../src/platform/rate-limit/index.ts';
import { rateLimitHeaders, strictestDecision } from '../../src/platform/rate-limit/index.ts';

const allowed = (remaining: number, limit = 20): RateLimitDecision => ({
  allowed: true,
  limit,
  remaining,
  resetSeconds: 30,
});
const refused = (retryAfterSeconds: number): RateLimitDecision => ({
  allowed: false,
  limit: 20,
  remaining: 0,
  resetSeconds: retryAfterSeconds,
  retryAfterSeconds,
});

describe('strictestDecision', () => {
  it('reports a refusal over any allowance, the longest refusal first', () => {
    expect(strictestDecision(allowed(0), refused(5))).toEqual(refused(5));
    expect(strictestDecision(refused(5), refused(40), allowed(3))).toEqual(refused(40));
  });

  it('reports the limit closest to running out when all allow', () => {
    expect(strictestDecision(allowed(19), allowed(2, 500))).toEqual(allowed(2, 500));
    expect(strictestDecision(allowed(7))).toEqual(allowed(7));
  });
});

describe('rateLimitHeaders', () => {
  it('adds retry-after only to a refusal', () => {
    expect(rateLimitHeaders(allowed(4))).toEqual({
      'ratelimit-limit': '20',
      'ratelimit-remaining': '4',
      'ratelimit-reset': '30',
    });
    expect(rateLimitHeaders(refused(12))).toEqual({
      'ratelimit-limit': '20',
      'ratelimit-remaining': '0',
      'ratelimit-reset': '12',
      'retry-after': '12',
    });
  });
});
