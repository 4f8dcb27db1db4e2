// Double opt-in confirmation links: signed like unsubscribe links (platform/unsubscribe-links.ts) with a key
// of their own purpose, and carrying an expiry, 7 days after the confirmation email was queued.
import type { Secrets } from '../platform/crypto.ts';
import { signToken } from '../platform/signed-tokens.ts';
import { openLinkToken, type ContactLink } from '../platform/unsubscribe-links.ts';

export const CONFIRMATION_PATH = '/confirm';
export const CONFIRMATION_VALID_MS = 7 * 24 * 60 * 60 * 1000;

interface ConfirmationLink extends ContactLink {
  expiresAt: Date;
}

function confirmationToken(secrets: Secrets, link: ConfirmationLink): string {
  return signToken(secrets, 'confirmation', [link.teamId, link.contactId, Math.floor(link.expiresAt.getTime() / 1000)]);
}

/** A link valid for CONFIRMATION_VALID_MS from `sentAt`. */
export function confirmationUrl(secrets: Secrets, publicUrl: string, link: ContactLink & { sentAt: Date }): string {
  const expiresAt = new Date(link.sentAt.getTime() + CONFIRMATION_VALID_MS);
  return `${publicUrl}${CONFIRMATION_PATH}/${confirmationToken(secrets, { teamId: link.teamId, contactId: link.contactId, expiresAt })}`;
}

/** What a confirmation token names (expired or not), or null when it is not one of ours. */
export function readConfirmationToken(secrets: Secrets, token: string): ConfirmationLink | null {
  const payload = openLinkToken(secrets, 'confirmation', token);
  if (payload === null || payload.length !== 3) return null;
  const [teamId, contactId, expires] = payload;
  if (!Number.isSafeInteger(teamId) || (teamId as number) <= 0) return null;
  if (typeof contactId !== 'string' || contactId === '' || !Number.isSafeInteger(expires)) return null;
  return { teamId: teamId as number, contactId, expiresAt: new Date((expires as number) * 1000) };
}

export function confirmationExpired(link: ConfirmationLink, now: Date): boolean {
  return now.getTime() >= link.expiresAt.getTime();
}
