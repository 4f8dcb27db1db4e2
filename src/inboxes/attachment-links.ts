// Signed links to a received message's attachments (contract: Limits, "inbound attachment links
// valid 24 hours"). The token is platform/signed-tokens.ts's format under its own key purpose
// ('inbound-attachment'), carrying the team, the message, the attachment's position and the expiry
// (seconds since the epoch): `{HERALD_PUBLIC_URL}/inbound/attachments/<token>`, no API key needed,
// as users paste them into browsers and <img> tags. A link is made fresh at every read.
import type { Secrets } from '../platform/crypto.ts';
import { openSignedToken, signToken } from '../platform/signed-tokens.ts';

export const ATTACHMENT_LINK_TTL_MS = 24 * 60 * 60 * 1000;
export const ATTACHMENT_PATH = '/inbound/attachments';
const TOKEN_MAX_LENGTH = 512;

export interface AttachmentRef {
  teamId: number;
  messageId: string;
  position: number;
}

export function attachmentUrl(secrets: Secrets, publicUrl: string, ref: AttachmentRef, now: Date): string {
  const expires = Math.floor((now.getTime() + ATTACHMENT_LINK_TTL_MS) / 1000);
  const token = signToken(secrets, 'inbound-attachment', ['a', ref.teamId, ref.messageId, ref.position, expires]);
  return `${publicUrl}${ATTACHMENT_PATH}/${token}`;
}

/** What a token names and until when; null when malformed, edited or forged. */
export function readAttachmentToken(secrets: Secrets, token: string): (AttachmentRef & { expiresAt: Date }) | null {
  const payload = openSignedToken(secrets, 'inbound-attachment', token, TOKEN_MAX_LENGTH);
  if (payload === null || payload.length !== 5) return null;
  const [kind, teamId, messageId, position, expires] = payload;
  if (
    kind !== 'a' ||
    !Number.isSafeInteger(teamId) ||
    typeof messageId !== 'string' ||
    messageId.length > 64 ||
    !Number.isSafeInteger(position) ||
    !Number.isSafeInteger(expires)
  )
    return null;
  return {
    teamId: teamId as number,
    messageId,
    position: position as number,
    expiresAt: new Date((expires as number) * 1000),
  };
}
