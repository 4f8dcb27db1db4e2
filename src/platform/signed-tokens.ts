// Signed tokens for links that work without a login: unsubscribe and double opt-in confirmation
// (src/contacts), the tracking pixel and rewritten links (src/tracking). A token is
// `base64url(JSON payload) "." base64url(tag)`, the tag the first 128 bits of HMAC-SHA256 over
// "v1." + the encoded payload, keyed by a key derived from HERALD_SECRET for the link's purpose (so
// a token of one purpose is never valid for another). The tag is compared in constant time. Tokens
// carry no expiry of their own: what needs one puts it in the payload.
import { safeEqual, type KeyPurpose, type Secrets } from './crypto.ts';

const TAG_BYTES = 16;

function tagOf(secrets: Secrets, purpose: KeyPurpose, encodedPayload: string): string {
  return secrets.hmac(purpose, `v1.${encodedPayload}`).subarray(0, TAG_BYTES).toString('base64url');
}

/** A signed, URL-safe token carrying `payload` (a JSON array). */
export function signToken(secrets: Secrets, purpose: KeyPurpose, payload: readonly unknown[]): string {
  const encoded = Buffer.from(JSON.stringify(payload), 'utf8').toString('base64url');
  return `${encoded}.${tagOf(secrets, purpose, encoded)}`;
}

/** The payload of a token signed for `purpose`, or null when it is malformed, edited, forged or longer than `maxLength`. */
export function openSignedToken(
  secrets: Secrets,
  purpose: KeyPurpose,
  token: string,
  maxLength: number,
): unknown[] | null {
  if (token.length > maxLength) return null;
  const dot = token.indexOf('.');
  if (dot <= 0 || dot !== token.lastIndexOf('.')) return null;
  const encoded = token.slice(0, dot);
  // No character checks before the tag's: it covers `encoded` exactly as given, only base64url is
  // ever signed, and the tag is compared whole with ours, so any other character fails there.
  if (!safeEqual(token.slice(dot + 1), tagOf(secrets, purpose, encoded))) return null;
  try {
    const payload: unknown = JSON.parse(Buffer.from(encoded, 'base64url').toString('utf8'));
    return Array.isArray(payload) ? payload : null;
  } catch {
    return null;
  }
}
