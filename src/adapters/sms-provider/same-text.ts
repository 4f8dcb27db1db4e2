// Constant-time comparison of a received signature or token with the expected one, whatever their
// lengths (timingSafeEqual throws on a length mismatch, which would itself leak the length).
import { createHash, timingSafeEqual } from 'node:crypto';

export function sameText(received: string | undefined, expected: string): boolean {
  if (received === undefined) return false;
  const a = createHash('sha256').update(received).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}
