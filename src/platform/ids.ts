// Time-ordered identifiers: 48 bits of milliseconds then 80 random bits, Crockford base32
// (26 characters, like a ULID). Sorting by id sorts by creation, which cursor paging relies on.
import { randomBytes } from 'node:crypto';

const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';

// Random bytes are drawn from the CSPRNG in blocks: one call per 409 ids instead of one per id.
const POOL_SIZE = 4096;
let pool = Buffer.alloc(0);
let poolOffset = 0;

function randomTen(): Buffer {
  if (poolOffset + 10 > pool.length) {
    pool = randomBytes(POOL_SIZE);
    poolOffset = 0;
  }
  poolOffset += 10;
  return pool.subarray(poolOffset - 10, poolOffset);
}

export function newId(prefix = '', at: Date = new Date()): string {
  let time = at.getTime();
  let head = '';
  for (let i = 0; i < 10; i++) {
    head = ALPHABET[time % 32]! + head;
    time = Math.floor(time / 32);
  }
  const random = randomTen();
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
