// The SMTP sink's DKIM helpers (re-exported by test/support/smtp-sink.ts): a fresh test key and a
// verifier that checks a received message's signatures against that key's record only.
import { generateKeyPairSync } from 'node:crypto';
import { dkimVerify } from 'mailauth/lib/dkim/verify.js';

// What a receiving MTA checks of what the sink got: a fresh DKIM key and a mailauth resolver that
// answers only its selector's TXT record, so signatures are verified without any network.
export interface TestDkimKey {
  domain: string;
  selector: string;
  privateKeyPem: string;
  txt: string;
}

export function makeDkimKey(domain: string, selector = 'herald'): TestDkimKey {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const p = publicKey.export({ type: 'spki', format: 'der' }).toString('base64');
  return {
    domain,
    selector,
    privateKeyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    txt: `v=DKIM1; k=rsa; p=${p}`,
  };
}

/** The status of each DKIM signature of `raw`, checked against `key`'s published record only. */
export async function verifyDkim(raw: Buffer, key: TestDkimKey): Promise<string[]> {
  const name = `${key.selector}._domainkey.${key.domain}`;
  const resolver = async (domain: string, rrtype: string) => {
    if (rrtype === 'TXT' && domain.toLowerCase() === name) return [[key.txt]];
    throw Object.assign(new Error(`no ${rrtype} for ${domain}`), { code: 'ENOTFOUND' });
  };
  const result = await dkimVerify(raw, { resolver });
  return result.results.map((entry) => entry.status.result);
}
