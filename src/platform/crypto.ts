// Keyed hashes, constant-time comparison, random tokens and authenticated encryption at rest.
// Every key is derived from HERALD_SECRET with a purpose label, so one leaked derived key does not
// expose the others.
import {
  createCipheriv,
  createDecipheriv,
  createSecretKey,
  hash,
  hkdfSync,
  randomBytes,
  timingSafeEqual,
  type KeyObject,
} from 'node:crypto';

export type KeyPurpose =
  | 'api-key'
  | 'cursor'
  | 'encryption'
  | 'client-ip'
  | 'link'
  | 'code'
  | 'return-path'
  | 'unsubscribe'
  | 'confirmation'
  | 'tracking'
  | 'inbound-attachment'
  | 'herald-dkim'
  | 'session'
  | 'session-csrf'
  | 'sign-in';

/** SHA-256's block size: HMAC pads its key to one block. */
const HMAC_BLOCK_BYTES = 64;
const SHA256_BYTES = 32;

export class Secrets {
  readonly #keys = new Map<KeyPurpose, KeyObject>();
  readonly #pads = new Map<KeyPurpose, { inner: Buffer; outer: Buffer }>();
  #scratch = Buffer.allocUnsafe(512);
  readonly #master: Buffer;

  constructor(masterSecret: string) {
    this.#master = Buffer.from(masterSecret, 'utf8');
  }

  /** A KeyObject, made once: building one from raw bytes on every HMAC dominated the request profile. */
  key(purpose: KeyPurpose): KeyObject {
    let key = this.#keys.get(purpose);
    if (!key) {
      key = createSecretKey(Buffer.from(hkdfSync('sha256', this.#master, 'herald', purpose, 32)));
      this.#keys.set(purpose, key);
    }
    return key;
  }

  /**
   * HMAC-SHA256 (RFC 2104) as two one-shot hashes over the key's padded blocks, made once per purpose:
   * H((K ^ opad) | H((K ^ ipad) | data)). The same bytes as createHmac (test/platform/crypto.test.ts),
   * but no Hmac object per call: under load the open pixel's profile showed createHmac well above the
   * one-shot hashes (the garbage and cold caches of a busy server; alone in a loop they are alike). Both blocks are assembled in one scratch buffer,
   * reused (the hashes are synchronous), rather than concatenated anew each call.
   */
  hmac(purpose: KeyPurpose, data: string | Buffer): Buffer {
    const pads = this.#padsOf(purpose);
    const length = typeof data === 'string' ? Buffer.byteLength(data, 'utf8') : data.length;
    const scratch = this.#scratchFor(HMAC_BLOCK_BYTES + Math.max(length, SHA256_BYTES));
    pads.inner.copy(scratch, 0);
    if (typeof data === 'string') scratch.write(data, HMAC_BLOCK_BYTES, 'utf8');
    else data.copy(scratch, HMAC_BLOCK_BYTES);
    const inner = hash('sha256', scratch.subarray(0, HMAC_BLOCK_BYTES + length), 'buffer');
    pads.outer.copy(scratch, 0);
    inner.copy(scratch, HMAC_BLOCK_BYTES);
    return hash('sha256', scratch.subarray(0, HMAC_BLOCK_BYTES + SHA256_BYTES), 'buffer');
  }

  #scratchFor(bytes: number): Buffer {
    if (this.#scratch.length < bytes) this.#scratch = Buffer.allocUnsafe(Math.max(bytes, this.#scratch.length * 2));
    return this.#scratch;
  }

  #padsOf(purpose: KeyPurpose): { inner: Buffer; outer: Buffer } {
    let pads = this.#pads.get(purpose);
    if (pads === undefined) {
      // The derived key is 32 bytes, shorter than SHA-256's 64-byte block: padded with zeros, not hashed.
      const key = this.key(purpose).export();
      const inner = Buffer.alloc(HMAC_BLOCK_BYTES, 0x36);
      const outer = Buffer.alloc(HMAC_BLOCK_BYTES, 0x5c);
      for (let i = 0; i < key.length; i++) {
        inner[i]! ^= key[i]!;
        outer[i]! ^= key[i]!;
      }
      pads = { inner, outer };
      this.#pads.set(purpose, pads);
    }
    return pads;
  }

  /** AES-256-GCM; output is base64url(iv | tag | ciphertext). */
  encrypt(plaintext: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key('encryption'), iv);
    const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
  }

  decrypt(sealed: string): string {
    const raw = Buffer.from(sealed, 'base64url');
    const decipher = createDecipheriv('aes-256-gcm', this.key('encryption'), raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
  }
}

/**
 * Herald's one constant-time comparison: whether a received secret (a signature, token, key or code
 * digest) equals the expected one, for any lengths. Its time depends on the received value's length
 * only (which its sender knows): never on where the two first differ, nor on the expected length.
 * Two strings are compared by UTF-16 unit without copying them to Buffers (a token's tag is checked
 * on every tracking request).
 */
export function safeEqual(received: Buffer | string, expected: Buffer | string): boolean {
  if (typeof received === 'string' && typeof expected === 'string') return sameUnits(received, expected);
  const left = typeof received === 'string' ? Buffer.from(received) : received;
  const right = typeof expected === 'string' ? Buffer.from(expected) : expected;
  if (left.length !== right.length) {
    // timingSafeEqual needs equal lengths: the received value against itself spends the same time.
    timingSafeEqual(left, left);
    return false;
  }
  return timingSafeEqual(left, right);
}

/** Every unit of `received` is compared, with `expected`'s read round and round when it is shorter. */
function sameUnits(received: string, expected: string): boolean {
  const length = expected.length || 1; // '' reads as NaN, which the XOR ignores; the lengths differ anyway
  let difference = received.length ^ expected.length;
  for (let i = 0; i < received.length; i++) difference |= received.charCodeAt(i) ^ expected.charCodeAt(i % length);
  return difference === 0;
}

export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}
