// Signed links that work without a login: unsubscribe (a contact's, or an email recipient's for
// List-Unsubscribe on MARKETING mail) and, in contacts/confirmation-links.ts, double opt-in
// confirmation. Here because emails mint these links and contacts serve them.
// The token format is platform/signed-tokens.ts's, keyed per purpose ('unsubscribe',
// 'confirmation'), so an unsubscribe token is never a valid confirmation token and vice versa.
// Unsubscribe tokens do not expire: RFC 8058 links must keep working for as long as the mail sits in
// an inbox.
import type { KeyPurpose, Secrets } from './crypto.ts';
import { openSignedToken, signToken } from './signed-tokens.ts';

/** Longer than any token we make (a 320-character address included); anything longer is refused unread. */
const TOKEN_MAX_LENGTH = 1024;

/** The payload of a token signed for `purpose`, or null when it is malformed, edited or forged. */
export function openLinkToken(secrets: Secrets, purpose: KeyPurpose, token: string): unknown[] | null {
  return openSignedToken(secrets, purpose, token, TOKEN_MAX_LENGTH);
}

export interface ContactLink {
  teamId: number;
  contactId: string;
}

interface EmailRecipientLink {
  teamId: number;
  emailId: string;
  /** The recipient's address; lower-cased in the token. */
  recipient: string;
}

type UnsubscribeTarget = ({ kind: 'contact' } & ContactLink) | ({ kind: 'email' } & EmailRecipientLink);

/** Public path of unsubscribe links, outside the API prefix (no API key; RFC 8058 one-click). */
export const UNSUBSCRIBE_PATH = '/unsubscribe';

const isTeamId = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) > 0;
const isText = (value: unknown): value is string =>
  typeof value === 'string' && value.length > 0 && value.length <= 320;

function contactUnsubscribeToken(secrets: Secrets, link: ContactLink): string {
  return signToken(secrets, 'unsubscribe', ['c', link.teamId, link.contactId]);
}

function emailUnsubscribeToken(secrets: Secrets, link: EmailRecipientLink): string {
  return signToken(secrets, 'unsubscribe', ['e', link.teamId, link.emailId, link.recipient.trim().toLowerCase()]);
}

/** What an unsubscribe token names, or null when it is not one of ours. */
export function readUnsubscribeToken(secrets: Secrets, token: string): UnsubscribeTarget | null {
  const payload = openLinkToken(secrets, 'unsubscribe', token);
  if (payload === null) return null;
  const [kind, teamId, a, b] = payload;
  if (kind === 'c' && payload.length === 3 && isTeamId(teamId) && isText(a))
    return { kind: 'contact', teamId, contactId: a };
  if (kind === 'e' && payload.length === 4 && isTeamId(teamId) && isText(a) && isText(b))
    return { kind: 'email', teamId, emailId: a, recipient: b };
  return null;
}

/** `publicUrl` is the configuration's HERALD_PUBLIC_URL (no trailing slash). */
export function contactUnsubscribeUrl(secrets: Secrets, publicUrl: string, link: ContactLink): string {
  return `${publicUrl}${UNSUBSCRIBE_PATH}/${contactUnsubscribeToken(secrets, link)}`;
}

/** The List-Unsubscribe (RFC 8058 one-click) URL of one recipient of a MARKETING email. */
export function emailUnsubscribeUrl(secrets: Secrets, publicUrl: string, link: EmailRecipientLink): string {
  return `${publicUrl}${UNSUBSCRIBE_PATH}/${emailUnsubscribeToken(secrets, link)}`;
}
