// Secrets.hmac computes HMAC-SHA256 from precomputed key pads (platform/crypto.ts); it must give
// exactly the bytes of node:crypto's createHmac with the same derived key, for any input.
import { createHmac, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { safeEqual, Secrets } from '../../src/platform/crypto.ts';

const secrets = new Secrets('test-secret-0123456789-0123456789-abcdef');
const reference = (purpose: Parameters<Secrets['key']>[0], data: string | Buffer) =>
  createHmac('sha256', secrets.key(purpose)).update(data).digest();

describe('Secrets.hmac', () => {
  it('equals createHmac for messages shorter than, equal to and longer than a block', () => {
    for (const length of [0, 1, 31, 55, 56, 63, 64, 65, 119, 128, 1000]) {
      const bytes = randomBytes(length);
      expect(secrets.hmac('tracking', bytes).equals(reference('tracking', bytes))).toBe(true);
      const text = 'x'.repeat(length);
      expect(secrets.hmac('api-key', text).equals(reference('api-key', text))).toBe(true);
    }
  });

  it('encodes strings as UTF-8, as createHmac does', () => {
    const text = 'ünïcødé ✉ 𝄞 bounce+abc@mail.example.test';
    expect(secrets.hmac('return-path', text).equals(reference('return-path', text))).toBe(true);
  });

  it('gives the same bytes whatever ran before it (its scratch buffer is reused and grown)', () => {
    const short = secrets.hmac('tracking', 'a');
    const long = 'é'.repeat(5000);
    expect(secrets.hmac('tracking', long).equals(reference('tracking', long))).toBe(true);
    expect(secrets.hmac('tracking', 'a').equals(short)).toBe(true);
    const bytes = randomBytes(3000);
    expect(secrets.hmac('link', bytes).equals(reference('link', bytes))).toBe(true);
  });

  it('keys each purpose apart, and repeated calls agree', () => {
    const a = secrets.hmac('tracking', 'v1.payload');
    expect(secrets.hmac('tracking', 'v1.payload').equals(a)).toBe(true);
    expect(secrets.hmac('unsubscribe', 'v1.payload').equals(a)).toBe(false);
    expect(new Secrets('another-secret-0123456789-0123456789-abc').hmac('tracking', 'v1.payload').equals(a)).toBe(
      false,
    );
  });
});

describe('safeEqual', () => {
  it('compares contents, whatever the lengths, of strings, Buffers or one of each', () => {
    expect(safeEqual('abc', 'abc')).toBe(true);
    expect(safeEqual('abc', 'abd')).toBe(false);
    expect(safeEqual('abc', 'abcd')).toBe(false);
    expect(safeEqual('abcd', 'abc')).toBe(false);
    expect(safeEqual(Buffer.from('abc'), 'abc')).toBe(true);
    expect(safeEqual('abc', Buffer.from('abc'))).toBe(true);
    expect(safeEqual(Buffer.from('abc'), Buffer.from('abcd'))).toBe(false);
    expect(safeEqual(Buffer.alloc(0), Buffer.alloc(0))).toBe(true);
  });

  it('compares every character of two strings, empty ones included', () => {
    expect(safeEqual('', '')).toBe(true);
    expect(safeEqual('', 'a')).toBe(false);
    expect(safeEqual('a', '')).toBe(false);
    expect(safeEqual('AbC-_9', 'AbC-_9')).toBe(true);
    expect(safeEqual('AbC-_9', 'AbC-_8')).toBe(false);
    expect(safeEqual('xbC-_9', 'AbC-_9')).toBe(false);
    expect(safeEqual('é', 'e')).toBe(false);
    // A longer received text that repeats the expected one is still refused.
    expect(safeEqual('abab', 'ab')).toBe(false);
    // Lone surrogates are told apart (as UTF-8 both would be U+FFFD).
    expect(safeEqual('a\ud800', 'a\ud801')).toBe(false);
  });

  it('compares digests as a code check does', () => {
    const digest = secrets.hmac('code', 'ver_1:123456');
    expect(safeEqual(secrets.hmac('code', 'ver_1:123456'), digest)).toBe(true);
    expect(safeEqual(secrets.hmac('code', 'ver_1:123457'), digest)).toBe(false);
    expect(safeEqual(digest.subarray(0, 31), digest)).toBe(false);
  });
});
