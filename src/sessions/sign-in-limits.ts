// Sign-in's rate limits, on the shared rate-limit counters (platform/rate-limit): per address, 5
// sign-in emails a quarter hour (past it the answer is still 202 and nothing is sent, so the limit
// tells nobody whether the address is a member); per client address, 20 sign-in requests and 20
// sign-in attempts a quarter hour (past it: 429). Windows are fixed quarter hours of the clock, as
// every limit of the rate limiter is. Addresses and client addresses are counted under keyed
// hashes, so the counters (in Redis when REDIS_URL is set) hold neither.
import { ApiError } from '../platform/errors.ts';
import type { Secrets } from '../platform/crypto.ts';
import {
  CounterUnavailableError,
  rateLimitHeaders,
  type RateLimitDecision,
  type RateLimiter,
} from '../platform/rate-limit/index.ts';

export const WINDOW_SECONDS = 15 * 60;
export const SIGN_INS_PER_ADDRESS = 5;
export const REQUESTS_PER_CLIENT = 20;

interface LimitDeps {
  rateLimiter: RateLimiter;
  secrets: Secrets;
  logger: { warn(obj: object, msg: string): void };
}

const hashed = (secrets: Secrets, what: string) => secrets.hmac('client-ip', what).toString('base64url').slice(0, 22);

/** The decision, or null when the counters cannot be reached (then nothing is limited: logged). */
async function decide(deps: LimitDeps, key: string, limit: number): Promise<RateLimitDecision | null> {
  try {
    return await deps.rateLimiter.hit(key, limit, WINDOW_SECONDS);
  } catch (error) {
    if (!(error instanceof CounterUnavailableError)) throw error;
    // As the API limit does: an outage of the shared counters must not stop every sign-in.
    deps.logger.warn({ limit: key.split(':')[0] }, 'rate-limit counters unavailable; sign-in not limited');
    return null;
  }
}

/** 429 when this client made too many requests of `kind` ('sign-in' or 'session') this quarter hour. */
export async function limitClient(deps: LimitDeps, kind: string, clientAddress: string): Promise<void> {
  const decision = await decide(deps, `${kind}-client:${hashed(deps.secrets, clientAddress)}`, REQUESTS_PER_CLIENT);
  if (decision === null || decision.allowed) return;
  throw new ApiError(
    429,
    'RATE_LIMITED',
    `Too many sign-in requests from this client; retry after ${decision.retryAfterSeconds} s`,
    { headers: rateLimitHeaders(decision) },
  );
}

/** Whether one more sign-in email may go to this address this quarter hour (counted either way). */
export async function limitAddress(deps: LimitDeps, email: string): Promise<boolean> {
  const decision = await decide(
    deps,
    `sign-in-address:${hashed(deps.secrets, `address:${email}`)}`,
    SIGN_INS_PER_ADDRESS,
  );
  return decision === null || decision.allowed;
}
