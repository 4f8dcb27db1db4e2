// Signing in to the dashboard by email (issue 45): a link `{HERALD_PUBLIC_URL}/sign-in/{token}` and a
// 6-digit code for another device, 15 minutes, single use (either one ends both), stored only as
// keyed hashes. The mail goes out through the sign-in-mail queue (sign-in-mail.ts), not as a team's
// email: a team's email is readable by the team's keys (GET /v1/emails/{id}), and a sign-in link
// read there would sign its reader in as that address, in every team it belongs to.
import { randomInt } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';
import { randomToken, safeEqual, type Secrets } from '../platform/crypto.ts';
import { newId } from '../platform/ids.ts';
import { notifyQueue } from '../queue/index.ts';
import { isMemberAnywhere } from './queries.ts';
import { startSession, type StartedSession } from './sessions.ts';
import {
  countWrongCode,
  insertSignInRequest,
  lockLiveCodes,
  markSignInUsed,
  useSignInLink,
} from './sign-in-queries.ts';

export const SIGN_IN_TTL_MS = 15 * 60_000;
/** An operator's link (`herald admin sign-in-link`, the first start's banner) is read off a terminal: an hour. */
export const OPERATOR_LINK_TTL_MS = 60 * 60_000;
export const SIGN_IN_MAIL_QUEUE = 'sign-in-mail';

const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export interface SignInDeps {
  db: Kysely<Database>;
  secrets: Secrets;
  /** HERALD_PUBLIC_URL: the dashboard, where the link points. */
  publicUrl: string;
}

/** What the sign-in mail says; sealed (encrypted) in the request row until the queue has sent it. */
export interface SignInMail {
  url: string;
  code: string;
  expiresAt: string;
  /** Set when an invite asked for the sign-in: the mail says who added the address to which team. */
  invite?: SignInInvite;
}

export const normaliseEmail = (email: string) => email.trim().toLowerCase();

export function signInUrl(publicUrl: string, token: string): string {
  return `${publicUrl.replace(/\/+$/, '')}/sign-in/${token}`;
}

const linkHash = (secrets: Secrets, token: string) => secrets.hmac('sign-in', `link:${token}`);
const codeHash = (secrets: Secrets, requestId: string, code: string) =>
  secrets.hmac('sign-in', `code:${requestId}:${code}`);

/** Who added the address to which team, when the sign-in is an invite's (POST /v1/team/members). */
export interface SignInInvite {
  teamName: string;
  invitedBy: string;
}

/** What queueSignIn needs: the keys its hashes and seal use, and where the link points. */
export type SignInQueueDeps = Pick<SignInDeps, 'secrets' | 'publicUrl'>;

/**
 * A sign-in by email for `email` (normalised) when it is a member of a team, stored with its mail in
 * the caller's transaction `tx`: the sign-in-mail queue sends it after that transaction commits, and
 * nothing of it survives a rollback. False (nothing stored) for an address that is no member. An
 * invite's caller adds the member first in the same `tx`, and `invite` for the mail to say so.
 */
export async function queueSignIn(
  tx: Transaction<Database>,
  deps: SignInQueueDeps,
  email: string,
  now: Date,
  invite?: SignInInvite,
): Promise<boolean> {
  if (!(await isMemberAnywhere(tx, email))) return false;
  const id = newId('sgn_', now);
  const token = randomToken(32);
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  const expiresAt = new Date(now.getTime() + SIGN_IN_TTL_MS);
  const mail: SignInMail = { url: signInUrl(deps.publicUrl, token), code, expiresAt: expiresAt.toISOString() };
  if (invite) mail.invite = { teamName: invite.teamName, invitedBy: invite.invitedBy };
  await insertSignInRequest(tx, {
    id,
    email,
    tokenHash: linkHash(deps.secrets, token),
    codeHash: codeHash(deps.secrets, id, code),
    expiresAt,
    mailSealed: deps.secrets.encrypt(JSON.stringify(mail)),
    at: now,
  });
  // NOTIFY in the transaction: the worker hears it only if and when the row commits.
  await notifyQueue(tx, SIGN_IN_MAIL_QUEUE);
  return true;
}

/** POST /v1/session/sign-in's sign-in (queueSignIn in a transaction of its own). */
export async function requestSignIn(deps: SignInDeps, email: string, now: Date): Promise<boolean> {
  return deps.db.transaction().execute((tx) => queueSignIn(tx, deps, email, now));
}

/** An operator's one-time link for a member's address (no code, no mail); null when it is no member. */
export async function mintSignInLink(
  deps: SignInDeps,
  email: string,
  now: Date,
): Promise<{ url: string; expiresAt: Date } | null> {
  const address = normaliseEmail(email);
  if (!(await isMemberAnywhere(deps.db, address))) return null;
  const token = randomToken(32);
  const expiresAt = new Date(now.getTime() + OPERATOR_LINK_TTL_MS);
  await insertSignInRequest(deps.db, {
    id: newId('sgn_', now),
    email: address,
    tokenHash: linkHash(deps.secrets, token),
    codeHash: null,
    expiresAt,
    mailSealed: null,
    at: now,
  });
  return { url: signInUrl(deps.publicUrl, token), expiresAt };
}

/** What a sign-in was made with: the link's token, or the address and the code. */
export type SignInCredential = { token: string } | { email: string; code: string };

/** A session started, or the field to name in the 400. */
export type SignInOutcome = { session: StartedSession; email: string } | { refused: 'token' | 'code' };

/**
 * Uses the link or the code and starts a session for its address, in one transaction. A wrong code
 * counts an attempt on every live sign-in of the address (committed, though refused): five wrong
 * codes and none of them takes a code any more.
 */
export async function signIn(
  deps: SignInDeps,
  credential: SignInCredential,
  userAgent: string | undefined,
  now: Date,
): Promise<SignInOutcome> {
  const field = 'token' in credential ? 'token' : 'code';
  if ('token' in credential && !TOKEN_PATTERN.test(credential.token)) return { refused: 'token' };
  return deps.db.transaction().execute(async (tx): Promise<SignInOutcome> => {
    let email: string | null;
    if ('token' in credential) {
      email = (await useSignInLink(tx, linkHash(deps.secrets, credential.token), now))?.email ?? null;
    } else {
      const address = normaliseEmail(credential.email);
      const live = await lockLiveCodes(tx, address, now);
      // Every live code is compared (no early exit), each with its own keyed hash.
      const matches = live.filter((row) => safeEqual(codeHash(deps.secrets, row.id, credential.code), row.code_hash!));
      if (matches.length > 0) {
        await markSignInUsed(tx, matches[0]!.id, now);
        email = address;
      } else {
        await countWrongCode(
          tx,
          live.map((row) => row.id),
        );
        email = null;
      }
    }
    // An address no longer a member of any team has nothing to sign in to.
    if (email === null || !(await isMemberAnywhere(tx, email))) return { refused: field };
    return { session: await startSession(tx, deps.secrets, email, userAgent, now), email };
  });
}
