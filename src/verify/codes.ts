// The code: CSPRNG digits, zero-padded; at rest only HMAC('code', "<verification id>:<code>"), so a
// leaked table gives neither the code nor a way to test guesses offline (unlike an unkeyed hash of a
// 10^6 space). Digests are compared in constant time here, or blinded with a fresh nonce in SQL
// (queries.ts, guessCodes), so a comparison's time never depends on how much of the digest matched.
import { randomInt } from 'node:crypto';
import { safeEqual, type Secrets } from '../platform/crypto.ts';

export function newCode(length: number): string {
  return String(randomInt(0, 10 ** length)).padStart(length, '0');
}

export function codeHash(secrets: Secrets, verificationId: string, code: string): Buffer {
  return secrets.hmac('code', `${verificationId}:${code}`);
}

export function codeMatches(secrets: Secrets, verificationId: string, typed: string, stored: Buffer): boolean {
  return safeEqual(codeHash(secrets, verificationId, typed), stored);
}
