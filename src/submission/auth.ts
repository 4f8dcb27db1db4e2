// AUTH PLAIN and AUTH LOGIN: the user name is `herald` (or `usesend`, `resend`, which those
// services' SMTP relays take, so that an application moved over keeps its settings) and the password
// is an API key, found as the HTTP API finds it (the principal cache: a keyed hash, compared in
// constant time). Only over TLS, except from loopback (an application on the same machine). A
// sending or full access key may send; a key limited to a domain sends only from that domain.
import ipaddr from 'ipaddr.js';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { domainName } from '../domains/index.ts';
import { isWellFormedKey, type Principal } from '../platform/auth/api-keys.ts';
import type { PrincipalCache } from '../platform/auth/principal-cache.ts';
import type { AuthLockout } from './auth-lockout.ts';
import { SmtpReply } from './smtp-replies.ts';

/** The user names AUTH accepts, lower-case. */
export const SUBMISSION_USERS: ReadonlySet<string> = new Set(['herald', 'usesend', 'resend']);

/** Key kinds that may send email (contract, Authentication: SEND is sending or full access). */
const SENDING_KINDS: ReadonlySet<string> = new Set(['sending', 'full']);

/** What an authenticated session carries (smtp-server's session.user). */
export interface SubmissionUser {
  /** The key's id: what smtp-server's own log lines show as the user, never the key. */
  username: string;
  principal: Principal;
  /** The name of the domain a domain-limited key may send from; null when the key has no limit. */
  keyDomain: string | null;
}

/** Loopback: 127.0.0.0/8, ::1, and IPv4-mapped loopback. */
export function isLoopback(remoteAddress: string): boolean {
  if (!ipaddr.isValid(remoteAddress)) return false;
  return ipaddr.process(remoteAddress).range() === 'loopback';
}

/**
 * RFC 4954 4: a password travels only inside TLS. The exception is a client on this machine
 * (`plaintextFromLoopback`, on unless a listener turns it off), where nothing is on the wire.
 */
export function mayAuthenticate(secure: boolean, remoteAddress: string, plaintextFromLoopback = true): boolean {
  return secure || (plaintextFromLoopback && isLoopback(remoteAddress));
}

export const lockedOut = () =>
  new SmtpReply(421, '4.7.0', 'Too many failed authentication attempts from your address; try again later', 'locked');

export const INVALID_CREDENTIALS = 'Authentication credentials invalid';

export interface AuthDeps {
  db: Kysely<Database>;
  principals: PrincipalCache;
  lockout: AuthLockout;
}

/**
 * The user of valid credentials, or the SmtpReply refusing them: 538 5.7.11 before TLS, 421 4.7.0
 * for a locked-out address, 535 5.7.8 for a wrong user name or key (counted towards the lockout),
 * 535 5.7.8 too for a key that cannot send (not counted: it is a real key, not a guess).
 */
export async function authenticate(
  deps: AuthDeps,
  credentials: { username: string; password: string },
  session: { secure: boolean; remoteAddress: string },
  plaintextFromLoopback: boolean,
): Promise<SubmissionUser> {
  if (deps.lockout.isLocked(session.remoteAddress)) throw lockedOut();
  if (!mayAuthenticate(session.secure, session.remoteAddress, plaintextFromLoopback))
    throw new SmtpReply(538, '5.7.11', 'Encryption required: use STARTTLS before AUTH', 'plaintext');
  const { username, password } = credentials;
  const principal =
    SUBMISSION_USERS.has(username.toLowerCase()) && isWellFormedKey(password)
      ? await deps.principals.lookup(password)
      : null;
  if (principal === null) {
    await deps.lockout.failed(session.remoteAddress);
    throw new SmtpReply(535, '5.7.8', INVALID_CREDENTIALS, 'invalid');
  }
  if (!SENDING_KINDS.has(principal.kind))
    throw new SmtpReply(
      535,
      '5.7.8',
      `${INVALID_CREDENTIALS}: a ${principal.kind} key cannot send email; use a sending or full access key`,
      'wrong_kind',
    );
  const keyDomain =
    principal.domainId === null ? null : ((await domainName(deps.db, principal.teamId, principal.domainId)) ?? '');
  return { username: principal.keyId, principal, keyDomain };
}
