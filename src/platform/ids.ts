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

/** The 10 characters of an id that encode its millisecond. */
function timeHead(at: Date): string {
  let time = at.getTime();
  let head = '';
  for (let i = 0; i < 10; i++) {
    head = ALPHABET[time % 32]! + head;
    time = Math.floor(time / 32);
  }
  return head;
}

/**
 * The smallest id of `prefix` made at `at` (as the database's herald_id_floor): rows made from `at`
 * on have ids from it on, which tells the planner which month partitions can hold them.
 */
export function idFloor(prefix: string, at: Date): string {
  return prefix + timeHead(at);
}

/** Ids of rows made later than `until` by another process's clock still count as made before it. */
const CLOCK_SKEW_MS = 60_000;

/**
 * The ids of `prefix` that rows made from `from` until `until` can have: a statement bounded by
 * them is planned on the month partitions that hold those rows alone.
 */
export function idsMadeBetween(prefix: string, from: Date, until: Date): { from: string; before: string } {
  return { from: idFloor(prefix, from), before: idFloor(prefix, new Date(until.getTime() + CLOCK_SKEW_MS)) };
}

export function newId(prefix = '', at: Date = new Date()): string {
  const head = timeHead(at);
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
