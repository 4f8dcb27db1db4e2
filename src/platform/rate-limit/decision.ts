// What a rate-limit check answers, and how to fold several checks into one answer.

interface DecisionFields {
  limit: number;
  /** Hits left in this window after this one; 0 once refused. */
  remaining: number;
  /** Whole seconds until the window ends (at least 1). */
  resetSeconds: number;
}

export type RateLimitDecision =
  (DecisionFields & { allowed: true }) | (DecisionFields & { allowed: false; retryAfterSeconds: number });

/**
 * The decision to report when one request counts against several limits (the contract's "invoice
 * reads 20 per minute per team, within a limit shared by every team"): a refusal wins, the one
 * that lasts longest; otherwise the limit closest to running out, so the headers warn early.
 */
export function strictestDecision(first: RateLimitDecision, ...rest: RateLimitDecision[]): RateLimitDecision {
  let strictest = first;
  for (const decision of rest) {
    if (isStricter(decision, strictest)) strictest = decision;
  }
  return strictest;
}

function isStricter(a: RateLimitDecision, b: RateLimitDecision): boolean {
  if (a.allowed !== b.allowed) return !a.allowed;
  if (!a.allowed && !b.allowed) return a.retryAfterSeconds > b.retryAfterSeconds;
  return a.remaining < b.remaining;
}
