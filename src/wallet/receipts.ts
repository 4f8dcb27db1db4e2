// Receipt references of top-ups and fees (read later by the billing area's receipt endpoints).
import { randomBytes } from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** `RCT-` and 12 random Crockford base32 characters (60 bits), unique by a constraint. */
export function newReceiptReference(): string {
  let out = 'RCT-';
  for (const byte of randomBytes(12)) out += ALPHABET[byte & 31];
  return out;
}
