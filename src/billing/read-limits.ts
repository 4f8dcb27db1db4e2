// Contract, Limits: billing reads 60 a minute per team; invoice reads also 20 a minute per team,
// within a limit shared by every team. 429 with Retry-After when exceeded. When the counters cannot
// be read (REDIS_URL set and Redis down) the read answers 503: never 429 on a guess, never unlimited.
import type { FastifyReply } from 'fastify';
import { ApiError } from '../platform/errors.ts';
import {
  CounterUnavailableError,
  rateLimitHeaders,
  strictestDecision,
  type RateLimitDecision,
  type RateLimiter,
} from '../platform/rate-limit/index.ts';

export const BILLING_READS_PER_MINUTE = 60;
export const INVOICE_READS_PER_MINUTE = 20;
/** The deployment-wide ceiling on invoice reads (each may call the card processor), shared by every team. */
export const INVOICE_READS_PER_MINUTE_ALL_TEAMS = 600;

const countersUnavailable = () =>
  new ApiError(
    503,
    'SERVICE_UNAVAILABLE',
    'Rate-limit counters cannot be read; billing reads are paused, retry shortly',
  );

async function decide(pending: RateLimitDecision | Promise<RateLimitDecision>): Promise<RateLimitDecision> {
  try {
    return await pending;
  } catch (error) {
    if (error instanceof CounterUnavailableError) throw countersUnavailable();
    throw error;
  }
}

/** Counts one billing read of the team (and one invoice read when `invoice`); throws 429 or 503. */
export async function admitBillingRead(
  limiter: RateLimiter,
  reply: FastifyReply,
  teamId: number,
  invoice: boolean,
): Promise<void> {
  const decisions = [await decide(limiter.perMinute(teamId, 'billing-reads', BILLING_READS_PER_MINUTE))];
  if (invoice && decisions[0]!.allowed) {
    decisions.push(await decide(limiter.perMinute(teamId, 'invoice-reads', INVOICE_READS_PER_MINUTE)));
    if (decisions[1]!.allowed) {
      decisions.push(await decide(limiter.perMinuteGlobal('invoice-reads', INVOICE_READS_PER_MINUTE_ALL_TEAMS)));
    }
  }
  const decision = strictestDecision(decisions[0]!, ...decisions.slice(1));
  if (decision.allowed) return;
  throw new ApiError(
    429,
    'RATE_LIMITED',
    `Billing read limit of ${decision.limit} a minute reached; retry after ${decision.retryAfterSeconds} s`,
    { headers: rateLimitHeaders(decision) },
  );
}
