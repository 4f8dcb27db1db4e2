// What a member change through the API also does, in the change's own transaction: its audit log
// entry, and for an invite the sign-in mail (so an invite that fails leaves neither member nor mail,
// and a crash after the commit loses no mail). Billing (the audit log) and sessions (the sign-in
// mail) import accounts, so app.ts hands their writers in (no area cycle).
import type { Transaction } from 'kysely';
import type { Database, Member } from '../db/schema.ts';
import type { Principal } from '../platform/auth/api-keys.ts';
import { ApiError } from '../platform/errors.ts';
import { CounterUnavailableError, type RateLimiter } from '../platform/rate-limit/index.ts';
import { getMember } from './queries.ts';

export type MemberAction = 'member.invited' | 'member.role_changed' | 'member.removed';

/** What an invite's sign-in mail says above the link: "<invitedBy> added you to the team <teamName>". */
export interface InviteMail {
  teamName: string;
  invitedBy: string;
}

/** The other areas' writers a member change calls (billing's auditChange, sessions' sign-in mail). */
export interface MemberChangeWriters {
  auditChange(
    tx: Transaction<Database>,
    principal: Principal,
    change: { action: MemberAction; target: string; method: string; path: string; status: number; at: Date },
  ): Promise<void>;
  /**
   * Queues in `tx` a one-time sign-in link and code for `email`, as POST /v1/session/sign-in does
   * (sessions' queueSignIn: the sign-in mail queue, from sign-in@), the mail saying who added the
   * address to which team. False when the address is no member (nothing stored): the invite adds
   * the member first, in the same transaction.
   */
  signInMail(tx: Transaction<Database>, email: string, now: Date, invite: InviteMail): Promise<boolean>;
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

/** How the mail names who invited: the calling key's or session's member (an admin: the access rule). */
async function inviterName(tx: Transaction<Database>, principal: Principal): Promise<string> {
  const inviter = principal.memberId === null ? undefined : await getMember(tx, principal.teamId, principal.memberId);
  if (!inviter) return 'An admin of the team';
  return inviter.name ? `${inviter.name} (${inviter.email})` : inviter.email;
}

/**
 * The invite's sign-in mail, queued in the invite's transaction after its member row: a failure
 * here rolls the invite back (the caller answers it), rather than leave a member nobody told.
 */
export async function mailInvite(
  tx: Transaction<Database>,
  writers: MemberChangeWriters,
  principal: Principal,
  invite: { member: Member; teamName: string },
  now: Date,
): Promise<void> {
  const { member, teamName } = invite;
  const invitedBy = await inviterName(tx, principal);
  if (!(await writers.signInMail(tx, member.email, now, { teamName, invitedBy })))
    throw new Error(`the invited member ${member.id} is not found by their address; the invite is not made`);
}
