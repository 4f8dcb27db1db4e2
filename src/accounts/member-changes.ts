// What a member change through the API also does: its audit log entry, written in the change's own
// transaction, and for an invite the sign-in mail, queued after the commit. Billing (the audit log)
// and sessions (the sign-in mail) import accounts, so app.ts hands their writers in (no area cycle).
import type { FastifyBaseLogger } from 'fastify';
import type { Transaction } from 'kysely';
import type { Database, Member } from '../db/schema.ts';
import type { Principal } from '../platform/auth/api-keys.ts';
import { ApiError } from '../platform/errors.ts';
import { CounterUnavailableError, type RateLimiter } from '../platform/rate-limit/index.ts';

export type MemberAction = 'member.invited' | 'member.role_changed' | 'member.removed';

/** The other areas' writers a member change calls (billing's auditChange, sessions' sign-in mail). */
export interface MemberChangeWriters {
  auditChange(
    tx: Transaction<Database>,
    principal: Principal,
    change: { action: MemberAction; target: string; method: string; path: string; status: number; at: Date },
  ): Promise<void>;
  /**
   * Mails `email` a one-time sign-in link and code, as POST /v1/session/sign-in does (the sign-in
   * mail queue, from sign-in@). Called after the member's row has committed: a sign-in is only
   * stored for an address that is a member, and it runs in a transaction of its own.
   */
  signInMail(email: string, now: Date): Promise<unknown>;
}

const METHODS: Record<MemberAction, string> = {
  'member.invited': 'POST',
  'member.role_changed': 'PATCH',
  'member.removed': 'DELETE',
};

/** The audit entry of a change; the target is the member's address (as a suppression's is). */
export async function auditMemberChange(
  tx: Transaction<Database>,
  writers: MemberChangeWriters,
  principal: Principal,
  change: { action: MemberAction; member: Member; path: string; status: number },
  now: Date,
): Promise<void> {
  await writers.auditChange(tx, principal, {
    action: change.action,
    target: change.member.email,
    method: METHODS[change.action],
    path: change.path,
    status: change.status,
    at: now,
  });
}

/** Invites per team per hour: each one mails an address the team chose, so a loop must not spam. */
export const INVITES_PER_HOUR = 20;

/** 429 past the team's invites this hour (every attempt counts); unlimited when the counters are down. */
export async function limitInvites(limiter: RateLimiter, teamId: number): Promise<void> {
  let decision;
  try {
    decision = await limiter.hit(`member-invites:${teamId}`, INVITES_PER_HOUR, 3600);
  } catch (error) {
    // As the API limit does: an outage of the shared counters does not stop every invite.
    if (error instanceof CounterUnavailableError) return;
    throw error;
  }
  if (decision.allowed) return;
  throw new ApiError(
    429,
    'RATE_LIMITED',
    `At most ${INVITES_PER_HOUR} invites an hour per team; retry after ${decision.retryAfterSeconds} s`,
    { headers: { 'retry-after': String(decision.retryAfterSeconds) } },
  );
}

/**
 * The invite's sign-in mail. The member is already added when this runs: a failure to queue the
 * mail is logged, not answered as an error (the invite stands, and the person can ask for a
 * sign-in link on the sign-in page with the same address).
 */
export async function mailInvite(
  writers: MemberChangeWriters,
  log: FastifyBaseLogger,
  member: Member,
  now: Date,
): Promise<void> {
  try {
    await writers.signInMail(member.email, now);
  } catch (error) {
    log.warn({ err: error, memberId: member.id }, 'the invited member was added but the sign-in mail was not queued');
  }
}
