// Herald's own mail domain (HERALD_MAIL_DOMAIN) as a sending domain every team may use out of the
// box, like Resend's onboarding domain: no row in `domains` (so it is never listed nor counted
// against plan limits), only to the team's own members (checked by the transaction send,
// src/emails/queue-emails.ts), signed with Herald's own DKIM key.
//
// The key is derived from HERALD_SECRET (through Secrets, purpose 'herald-dkim'), so every process
// of an installation (api, worker, smtp, on any host) signs with the same key without sharing a
// file or a row, and `herald admin dns` prints the same public key: a 2048-bit RSA key whose primes
// come from a deterministic generator (HMAC-SHA256 counter mode over the derived seed; the first
// probable prime after a random start, tested by OpenSSL's checkPrime), imported through JWK. Made
// once per process, lazily (tens of milliseconds).
import { checkPrimeSync, createHmac, createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import type { Secrets } from '../platform/crypto.ts';
import { dkimRecordValue } from './dkim.ts';
import { dkimNameFor, dmarcNameFor } from './records.ts';
import type { SendingDomain } from './sending.ts';

/** The selector of Herald's own key: `herald._domainkey.<HERALD_MAIL_DOMAIN>`. */
export const BUILTIN_DKIM_SELECTOR = 'herald';

const E = 65537n;

/** Deterministic byte stream: HMAC(seed, label || counter). */
function byteStream(seed: Buffer, label: string): () => Buffer {
  let counter = 0;
  return () => createHmac('sha256', seed).update(`${label}:${counter++}`).digest();
}

function randomBigInt(next: () => Buffer, bits: number): bigint {
  const chunks: Buffer[] = [];
  for (let have = 0; have < bits; have += 256) chunks.push(next());
  let n = BigInt(`0x${Buffer.concat(chunks).toString('hex')}`);
  n &= (1n << BigInt(bits)) - 1n;
  // The top two bits set (so p*q has exactly 2*bits bits), odd.
  return n | (3n << BigInt(bits - 2)) | 1n;
}

const SMALL_PRIMES = (() => {
  const list: number[] = [];
  for (let n = 3; n < 2000; n += 2) if (list.every((p) => n % p !== 0)) list.push(n);
  return list;
})();

function modInverse(a: bigint, m: bigint): bigint {
  let [oldR, r] = [a % m, m];
  let [oldS, s] = [1n, 0n];
  while (r !== 0n) {
    const q = oldR / r;
    [oldR, r] = [r, oldR - q * r];
    [oldS, s] = [s, oldS - q * s];
  }
  return ((oldS % m) + m) % m;
}

/** The first probable prime from a random start, stepping by 2; small factors sieved with plain numbers. */
function primeFrom(next: () => Buffer, bits: number): bigint {
  const start = randomBigInt(next, bits);
  const residues = SMALL_PRIMES.map((p) => Number(start % BigInt(p)));
  for (let step = 0; ; step += 2) {
    if (SMALL_PRIMES.some((p, i) => (residues[i]! + step) % p === 0)) continue;
    const candidate = start + BigInt(step);
    if ((candidate - 1n) % E !== 0n && checkPrimeSync(candidate)) return candidate;
  }
}

const b64u = (n: bigint) => {
  let hex = n.toString(16);
  if (hex.length % 2) hex = `0${hex}`;
  return Buffer.from(hex, 'hex').toString('base64url');
};

/** The RSA-2048 private key made from `seed`: the same seed always gives the same key. */
export function rsaKeyFromSeed(seed: Buffer): KeyObject {
  const next = byteStream(seed, 'herald-dkim-rsa');
  let p = primeFrom(next, 1024);
  let q = primeFrom(next, 1024);
  while (p === q) q = primeFrom(next, 1024);
  if (p < q) [p, q] = [q, p];
  const phi = (p - 1n) * (q - 1n);
  const d = modInverse(E, phi);
  const jwk = {
    kty: 'RSA',
    n: b64u(p * q),
    e: b64u(E),
    d: b64u(d),
    p: b64u(p),
    q: b64u(q),
    dp: b64u(d % (p - 1n)),
    dq: b64u(d % (q - 1n)),
    qi: b64u(modInverse(q, p)),
  };
  return createPrivateKey({ key: jwk, format: 'jwk' });
}

interface BuiltinKey {
  privateKeyPem: string;
  /** base64 DER SubjectPublicKeyInfo: the record's p= value. */
  publicKey: string;
}

const keys = new WeakMap<Secrets, BuiltinKey>();

/** Herald's own DKIM key, derived from HERALD_SECRET; made once per Secrets. */
export function builtinDkimKey(secrets: Secrets): BuiltinKey {
  let key = keys.get(secrets);
  if (!key) {
    const privateKey = rsaKeyFromSeed(secrets.hmac('herald-dkim', 'builtin mail domain key v1'));
    key = {
      privateKeyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }) as string,
      publicKey: (createPublicKey(privateKey).export({ type: 'spki', format: 'der' }) as Buffer).toString('base64'),
    };
    keys.set(secrets, key);
  }
  return key;
}

/** The built-in domain as a sending domain of `teamId`: no tracking, bounces to the mail domain itself. */
export function builtinSendingDomain(secrets: Secrets, teamId: number, mailDomain: string): SendingDomain {
  return {
    id: 0,
    teamId,
    name: mailDomain,
    returnPath: mailDomain,
    dkimSelector: BUILTIN_DKIM_SELECTOR,
    dkimPrivateKey: builtinDkimKey(secrets).privateKeyPem,
    clickTracking: false,
    openTracking: false,
  };
}

export interface BuiltinDnsRecord {
  type: 'TXT' | 'MX';
  name: string;
  value: string;
  priority: number | null;
  /** Why the record is there, for the operator. */
  purpose: string;
}

/** The records an operator publishes in the zone of HERALD_MAIL_DOMAIN (`herald admin dns`). */
export function builtinDnsRecords(secrets: Secrets, mailDomain: string): BuiltinDnsRecord[] {
  return [
    {
      type: 'TXT',
      name: dkimNameFor(BUILTIN_DKIM_SELECTOR, mailDomain),
      value: dkimRecordValue(builtinDkimKey(secrets).publicKey),
      priority: null,
      purpose: "DKIM: Herald's own key (derived from HERALD_SECRET); signs mail from the built-in domain",
    },
    {
      type: 'TXT',
      name: mailDomain,
      value: 'v=spf1 a mx ~all',
      priority: null,
      purpose:
        'SPF: list the addresses Herald sends from (the direct transport) or your relay (include:...); every team domain includes this record',
    },
    {
      type: 'MX',
      name: mailDomain,
      value: mailDomain,
      priority: 10,
      purpose: "Bounces and complaint reports: the host running Herald's SMTP listener (herald smtp) on port 25",
    },
    {
      type: 'TXT',
      name: dmarcNameFor(mailDomain),
      value: 'v=DMARC1; p=none;',
      priority: null,
      purpose: 'DMARC (recommended)',
    },
  ];
}
