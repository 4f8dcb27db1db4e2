// 429 RATE_LIMITED: fixed windows on the shared rate limiter (memory or Redis counters), keyed by
// team and a keyed hash (no address, number or IP in a counter key). Per recipient 5 codes per 10
// minutes (Twilio Verify's limit); per client IP 50 and per number prefix 30 per 10 minutes. Risk
// scoring runs first, so a burst that looks like abuse is refused with its reasons (422), not only
// throttled. A fixed window may let twice the limit through across its boundary. Shared counters
// unreachable (REDIS_URL set, Redis down): codes are sent unlimited, as every API limit is
// (docs/OPERATIONS.md), while risk scoring, which reads the database, still refuses abuse; the
// outage is logged once per change of the circuit's state (build-deps.ts), not per request.
import type { Secrets } from '../platform/crypto.ts';
import { ApiError } from '../platform/errors.ts';
import {
  CounterUnavailableError,
  rateLimitHeaders,
  type RateLimitDecision,
  type RateLimiter,
} from '../platform/rate-limit/index.ts';

export const WINDOW_SECONDS = 600;
export const SEND_LIMITS = { recipient: 5, clientIp: 50, prefix: 30 } as const;

const keyOf = (secrets: Secrets, what: string, value: string) =>
  secrets.hmac('code', `limit:${what}:${value}`).toString('base64url').slice(0, 22);

export async function enforceSendLimits(
  limiter: RateLimiter,
  secrets: Secrets,
  teamId: number,
  q: { to: string; clientIp: string | undefined; toPrefix: string | null },
): Promise<void> {
  const checks: [string, string, number, string][] = [
    [
      'to',
      q.to,
      SEND_LIMITS.recipient,
      `too many codes for this recipient: at most ${SEND_LIMITS.recipient} per 10 minutes`,
    ],
  ];
  if (q.clientIp !== undefined)
    checks.push([
      'ip',
      q.clientIp,
      SEND_LIMITS.clientIp,
      `too many codes for this client IP: at most ${SEND_LIMITS.clientIp} per 10 minutes`,
    ]);
  if (q.toPrefix !== null)
    checks.push([
      'prefix',
      q.toPrefix,
      SEND_LIMITS.prefix,
      `too many codes to numbers with this prefix: at most ${SEND_LIMITS.prefix} per 10 minutes`,
    ]);
  for (const [what, value, limit, message] of checks) {
    let decision: RateLimitDecision;
    try {
      decision = await limiter.hit(`verify:${what}:${teamId}:${keyOf(secrets, what, value)}`, limit, WINDOW_SECONDS);
    } catch (error) {
      if (error instanceof CounterUnavailableError) return;
      throw error;
    }
    if (!decision.allowed) throw new ApiError(429, 'RATE_LIMITED', message, { headers: rateLimitHeaders(decision) });
  }
}
