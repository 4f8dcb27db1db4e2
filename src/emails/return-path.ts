// The envelope sender (MAIL FROM) of each email: bounce+<emailId>.<tag>@<return-path domain>, where
// tag is a truncated HMAC of the id under the 'return-path' key. A bounce that comes back names the
// email it belongs to, and nobody without HERALD_SECRET can make an address that names another one.
// Lower-case base32 throughout, because some MTAs fold the local part's case.
import { safeEqual, type Secrets } from '../platform/crypto.ts';

const PREFIX = 'bounce+';
// 16 base32 characters = 80 bits of the HMAC.
const TAG_LENGTH = 16;
const ALPHABET = 'abcdefghijklmnopqrstuvwxyz234567';
// Herald ids are Crockford base32 with an optional `xxx_` prefix (platform/ids.ts).
const EMAIL_ID = /^[a-z0-9_]{1,40}$/;

function base32(bytes: Buffer): string {
  let out = '';
  let bits = 0;
  let value = 0;
  for (const byte of bytes) {
    value = ((value << 8) | byte) & 0xffff;
    bits += 8;
    while (bits >= 5) {
      bits -= 5;
      out += ALPHABET[(value >> bits) & 31];
    }
  }
  return out;
}

function tagFor(emailId: string, secrets: Secrets): string {
  return base32(secrets.hmac('return-path', emailId)).slice(0, TAG_LENGTH);
}

/** The MAIL FROM address of one email. */
export function returnPathAddress(emailId: string, returnPathDomain: string, secrets: Secrets): string {
  const id = emailId.toLowerCase();
  if (!EMAIL_ID.test(id)) throw new Error(`email id ${JSON.stringify(emailId)} cannot be put in a return path`);
  return `${PREFIX}${id}.${tagFor(id, secrets)}@${returnPathDomain.toLowerCase()}`;
}

/** The email id a bounce address names, or null when it is not one of ours or was altered. */
export function parseReturnPath(address: string, secrets: Secrets): string | null {
  const bare = address.trim().replace(/^<|>$/g, '').toLowerCase();
  const at = bare.lastIndexOf('@');
  if (at <= 0) return null;
  const local = bare.slice(0, at);
  if (!local.startsWith(PREFIX)) return null;
  const rest = local.slice(PREFIX.length);
  const dot = rest.lastIndexOf('.');
  if (dot <= 0) return null;
  const emailId = rest.slice(0, dot);
  const tag = rest.slice(dot + 1);
  if (!EMAIL_ID.test(emailId) || tag.length !== TAG_LENGTH) return null;
  return safeEqual(tag, tagFor(emailId, secrets)) ? emailId : null;
}
