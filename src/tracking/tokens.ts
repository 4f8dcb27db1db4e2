// Signed tokens of the open pixel and of rewritten links: platform/signed-tokens.ts's format (the
// contacts area's signed links use it too) with its own key purpose ('tracking'), so a tracking token
// is never an unsubscribe token and the other way round. The tag is the first 128 bits of
// HMAC-SHA256 over "v1." + the encoded payload, compared in constant time. Because the link is
// inside the signed payload, a token cannot be edited to redirect anywhere else (no open redirect).
//
// Payloads: open  ['o', teamId, emailId, recipient | null]
//           click ['c', teamId, emailId, recipient | null, link]
// The team is in the token so that recording needs no lookup; the recipient is known only for the
// per-recipient copies of MARKETING mail (a transactional email is one message to all recipients).
// Tokens do not expire: mail sits in inboxes for years and its links must keep working.
import type { Secrets } from '../platform/crypto.ts';
import { openSignedToken, signToken } from '../platform/signed-tokens.ts';

/** The app's router refuses path parameters longer than this (app.ts `maxParamLength`). */
export const TRACKING_TOKEN_MAX_LENGTH = 2048;

export interface TrackedEmail {
  teamId: number;
  emailId: string;
  /** Lower-cased address of the copy's only recipient, or null for a message to several. */
  recipient: string | null;
}

interface TrackedLink extends TrackedEmail {
  /** The original URL (entities decoded), where the redirect goes. */
  link: string;
}

const sign = (secrets: Secrets, payload: readonly unknown[]) => signToken(secrets, 'tracking', payload);
const open = (secrets: Secrets, token: string) =>
  openSignedToken(secrets, 'tracking', token, TRACKING_TOKEN_MAX_LENGTH);

const recipientOf = (recipient: string | null) => (recipient === null ? null : recipient.trim().toLowerCase());
const isTeamId = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) > 0;
const isText = (value: unknown, max: number): value is string =>
  typeof value === 'string' && value.length > 0 && value.length <= max;
const isRecipient = (value: unknown): value is string | null => value === null || isText(value, 320);

export function openToken(secrets: Secrets, email: TrackedEmail): string {
  return sign(secrets, ['o', email.teamId, email.emailId, recipientOf(email.recipient)]);
}

export function clickToken(secrets: Secrets, link: TrackedLink): string {
  return sign(secrets, ['c', link.teamId, link.emailId, recipientOf(link.recipient), link.link]);
}

/** What an open token names, or null when it is malformed, edited, forged or of another kind. */
export function readOpenToken(secrets: Secrets, token: string): TrackedEmail | null {
  const payload = open(secrets, token);
  if (payload === null || payload.length !== 4) return null;
  const [kind, teamId, emailId, recipient] = payload;
  if (kind !== 'o' || !isTeamId(teamId) || !isText(emailId, 64) || !isRecipient(recipient)) return null;
  return { teamId, emailId, recipient };
}

/** What a click token names, or null when it is malformed, edited, forged or of another kind. */
export function readClickToken(secrets: Secrets, token: string): TrackedLink | null {
  const payload = open(secrets, token);
  if (payload === null || payload.length !== 5) return null;
  const [kind, teamId, emailId, recipient, link] = payload;
  if (
    kind !== 'c' ||
    !isTeamId(teamId) ||
    !isText(emailId, 64) ||
    !isRecipient(recipient) ||
    !isText(link, TRACKING_TOKEN_MAX_LENGTH)
  )
    return null;
  // Signed by us only for http(s) links; checked again so that a redirect can never go elsewhere.
  if (!/^https?:\/\//i.test(link)) return null;
  return { teamId, emailId, recipient, link };
}

/** Public paths, outside the API prefix (no API key), like /unsubscribe. */
export const OPEN_PATH = '/t/o';
export const CLICK_PATH = '/t/c';

/** `publicUrl` is HERALD_PUBLIC_URL without a trailing slash. */
export const openUrl = (secrets: Secrets, publicUrl: string, email: TrackedEmail) =>
  `${publicUrl}${OPEN_PATH}/${openToken(secrets, email)}`;
export const clickUrl = (secrets: Secrets, publicUrl: string, link: TrackedLink) =>
  `${publicUrl}${CLICK_PATH}/${clickToken(secrets, link)}`;
