// A domain's DKIM key: 2048-bit RSA made with node:crypto when the domain is added. The public half
// (base64 DER SubjectPublicKeyInfo) is the p= tag of the DNS record; the private half is stored only
// sealed (Secrets.encrypt) and opened when mail is signed.
import { generateKeyPair, randomBytes } from 'node:crypto';
import { promisify } from 'node:util';

const generateRsaKeyPair = promisify(generateKeyPair);

interface DkimKeyPair {
  /** base64 DER SubjectPublicKeyInfo: the record's p= value. */
  publicKey: string;
  /** PKCS#8 PEM; seal it before it goes anywhere near the database. */
  privateKeyPem: string;
}

export async function generateDkimKeyPair(): Promise<DkimKeyPair> {
  const { publicKey, privateKey } = await generateRsaKeyPair('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'der' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  return { publicKey: publicKey.toString('base64'), privateKeyPem: privateKey };
}

/**
 * `herald` + 8 random hex digits. Random rather than fixed because two teams may add the same domain,
 * each with its own key: their records must live at different names to be published side by side.
 */
export function newDkimSelector(): string {
  return `herald${randomBytes(4).toString('hex')}`;
}

export function dkimRecordValue(publicKey: string): string {
  return `v=DKIM1; k=rsa; p=${publicKey}`;
}

/** The tags of a DKIM record (RFC 6376 3.2): `tag=value` pairs separated by semicolons. */
export function dkimTags(record: string): Map<string, string> {
  const tags = new Map<string, string>();
  for (const part of record.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    tags.set(part.slice(0, eq).trim().toLowerCase(), part.slice(eq + 1));
  }
  return tags;
}

/** Does this TXT record publish `publicKey`? Whitespace inside p= is allowed and ignored (RFC 6376). */
export function publishesDkimKey(record: string, publicKey: string): boolean {
  const p = dkimTags(record).get('p');
  return p !== undefined && p.replace(/\s+/g, '') === publicKey;
}
