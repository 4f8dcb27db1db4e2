// Time-ordered identifiers: 48 bits of milliseconds then 80 random bits, Crockford base32
// (26 characters, like a ULID). Sorting by id sorts by creation, which cursor paging relies on.
import { randomBytes } from 'node:crypto';

const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';

export function newId(prefix = '', at: Date = new Date()): string {
  let time = at.getTime();
  let head = '';
  for (let i = 0; i < 10; i++) {
    head = ALPHABET[time % 32]! + head;
    time = Math.floor(time / 32);
  }
  const random = randomBytes(10);
  let tail = '';
  let bits = 0;
  let value = 0;
  for (const byte of random) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      bits -= 5;
      tail += ALPHABET[(value >> bits) & 31];
    }
  }
  return prefix + head + tail;
}
