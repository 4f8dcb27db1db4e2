// A self-signed certificate for the submission listener on the embedded default, made with
// node:crypto and the few DER structures an X.509 certificate needs. Why not a package: `selfsigned`
// (over @peculiar/x509) fails in this dependency tree, whose mailauth pins older @peculiar/asn1-*
// copies that the newer ones cannot read ("Cannot get schema for 'AlgorithmIdentifier'"), and no
// other maintained generator is installed. node:crypto makes the key and the signature; this file
// only lays out the bytes, and node's X509Certificate reads the result back (tls-certificate.ts).
import { generateKeyPairSync, randomBytes, sign } from 'node:crypto';
import { isIP } from 'node:net';

/** A DER element: tag, definite length, content. */
function der(tag: number, content: Buffer): Buffer {
  const length = content.length;
  if (length < 0x80) return Buffer.concat([Buffer.from([tag, length]), content]);
  const bytes: number[] = [];
  for (let n = length; n > 0; n = Math.floor(n / 256)) bytes.unshift(n % 256);
  return Buffer.concat([Buffer.from([tag, 0x80 | bytes.length, ...bytes]), content]);
}

const sequence = (...items: Buffer[]) => der(0x30, Buffer.concat(items));
const set = (...items: Buffer[]) => der(0x31, Buffer.concat(items));
const octets = (content: Buffer) => der(0x04, content);
const bitString = (content: Buffer, unusedBits = 0) => der(0x03, Buffer.concat([Buffer.from([unusedBits]), content]));
const explicit = (n: number, content: Buffer) => der(0xa0 + n, content);
const boolean = (value: boolean) => der(0x01, Buffer.from([value ? 0xff : 0x00]));

/** A non-negative INTEGER: a leading zero keeps a high first bit from reading as a sign. */
function integer(bytes: Buffer): Buffer {
  return der(0x02, bytes[0]! & 0x80 ? Buffer.concat([Buffer.from([0]), bytes]) : bytes);
}

function oid(dotted: string): Buffer {
  const [first, second, ...rest] = dotted.split('.').map(Number);
  const bytes = [40 * first! + second!];
  for (const arc of rest) {
    const base128 = [arc % 128];
    for (let n = Math.floor(arc / 128); n > 0; n = Math.floor(n / 128)) base128.unshift((n % 128) | 0x80);
    bytes.push(...base128);
  }
  return der(0x06, Buffer.from(bytes));
}

/** RFC 5280 4.1.2.5: UTCTime through 2049, GeneralizedTime from 2050. */
function time(at: Date): Buffer {
  const digits = at.toISOString().replace(/[-:T]/g, '').slice(0, 14);
  return at.getUTCFullYear() < 2050
    ? der(0x17, Buffer.from(`${digits.slice(2)}Z`, 'ascii'))
    : der(0x18, Buffer.from(`${digits}Z`, 'ascii'));
}

function ipBytes(address: string): Buffer {
  if (isIP(address) === 4) return Buffer.from(address.split('.').map(Number));
  // IPv6: expand :: and write the eight groups.
  const [head = '', tail = ''] = address.split('::');
  const left = head === '' ? [] : head.split(':');
  const right = tail === '' ? [] : tail.split(':');
  const groups = address.includes('::')
    ? [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right]
    : left;
  return Buffer.concat(groups.map((g) => Buffer.from(g.padStart(4, '0'), 'hex')));
}

const commonName = (name: string) => sequence(set(sequence(oid('2.5.4.3'), der(0x0c, Buffer.from(name, 'utf8')))));
const extension = (id: string, critical: boolean, value: Buffer) =>
  sequence(oid(id), ...(critical ? [boolean(true)] : []), octets(value));
const ECDSA_WITH_SHA256 = sequence(oid('1.2.840.10045.4.3.2'));

export interface SelfSignedCertificate {
  cert: string;
  key: string;
}

/**
 * A P-256 certificate for `names` (host names and IP addresses, all in subjectAltName; the first is
 * the common name), signed by its own key, valid from an hour ago for `days`.
 */
export function selfSignedCertificate(names: string[], now: Date, days: number): SelfSignedCertificate {
  const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const serial = randomBytes(16);
  // Positive with a first byte that is not zero: a DER INTEGER may not start with a zero byte
  // before one under 0x80, and OpenSSL refused 1 certificate in 256 ("illegal padding").
  serial[0] = (serial[0]! & 0x7f) | 0x40;
  const altNames = names.map((name) =>
    isIP(name) === 0 ? der(0x82, Buffer.from(name, 'ascii')) : der(0x87, ipBytes(name)),
  );
  const subject = commonName(names[0]!);
  const tbs = sequence(
    explicit(0, integer(Buffer.from([2]))),
    integer(serial),
    ECDSA_WITH_SHA256,
    subject,
    sequence(time(new Date(now.getTime() - 3_600_000)), time(new Date(now.getTime() + days * 86_400_000))),
    subject,
    publicKey.export({ type: 'spki', format: 'der' }),
    explicit(
      3,
      sequence(
        extension('2.5.29.19', true, sequence()), // basicConstraints: not a CA
        extension('2.5.29.15', true, bitString(Buffer.from([0x80]), 7)), // keyUsage: digitalSignature
        extension('2.5.29.37', false, sequence(oid('1.3.6.1.5.5.7.3.1'))), // extKeyUsage: serverAuth
        extension('2.5.29.17', false, sequence(...altNames)), // subjectAltName
      ),
    ),
  );
  const signature = sign('sha256', tbs, { key: privateKey, dsaEncoding: 'der' });
  const certificate = sequence(tbs, ECDSA_WITH_SHA256, bitString(signature));
  const lines = certificate.toString('base64').match(/.{1,64}/g)!;
  return {
    cert: `-----BEGIN CERTIFICATE-----\n${lines.join('\n')}\n-----END CERTIFICATE-----\n`,
    key: privateKey.export({ type: 'pkcs8', format: 'pem' }) as string,
  };
}
