// Every self-signed certificate made parses: with a random serial whose first byte was zero, one in
// 256 was refused by OpenSSL (a DER INTEGER with a needless leading zero), and so was a start.
import { X509Certificate } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { selfSignedCertificate } from '../../src/submission/self-signed.ts';

describe('selfSignedCertificate', () => {
  it('makes certificates that parse, 2,000 in a row', () => {
    const now = new Date();
    for (let i = 0; i < 2_000; i++) {
      const made = selfSignedCertificate(['mail.herald.test', '127.0.0.1'], now, 30);
      expect(() => new X509Certificate(made.cert)).not.toThrow();
    }
  });
});
