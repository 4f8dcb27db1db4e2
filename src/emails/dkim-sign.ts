// DKIM-signs a built message with the sending domain's own key (mailauth): rsa-sha256,
// relaxed/relaxed, over the headers a receiver shows or uses to decide (only those present are
// listed in h=). The signature is prepended, so the rest of the message goes out byte for byte.
import { BUILTIN_DKIM_SELECTOR, builtinDkimKey } from '../domains/index.ts';
import type { Secrets } from '../platform/crypto.ts';
import { lazy } from '../platform/lazy.ts';

/** mailauth's signer (with its tools and their schema package), read at the first message signed. */
const dkimSigner = lazy(async () => (await import('mailauth/lib/dkim/sign.js')).dkimSign);

interface DkimKey {
  /** d=, the sending domain. */
  domain: string;
  /** s=, the selector whose TXT record holds the public key. */
  selector: string;
  /** PKCS#8 (or PKCS#1) PEM. */
  privateKeyPem: string;
}

const DKIM_SIGNED_HEADERS = [
  'From',
  'To',
  'Cc',
  'Subject',
  'Date',
  'Message-ID',
  'Reply-To',
  'MIME-Version',
  'Content-Type',
  'In-Reply-To',
  'References',
  'List-Unsubscribe',
  'List-Unsubscribe-Post',
] as const;

class DkimSignError extends Error {
  override name = 'DkimSignError';
}

export async function signMessage(raw: Buffer, key: DkimKey, signTime: Date = new Date()): Promise<Buffer> {
  const signature = { signingDomain: key.domain, selector: key.selector, privateKey: key.privateKeyPem };
  const dkimSign = await dkimSigner();
  const result = await dkimSign(raw, {
    // mailauth signs with the `signatureData` entries; its typings also require the top-level fields.
    ...signature,
    signatureData: [signature],
    algorithm: 'rsa-sha256',
    canonicalization: 'relaxed/relaxed',
    // mailauth reads this as a colon-separated string (its typings say string[]; an array would be
    // silently replaced by its default list).
    headerList: DKIM_SIGNED_HEADERS.join(':') as unknown as string[],
    // Always given: without it mailauth reads the clock twice, and a signature made across a second's
    // boundary carries a t= that does not match what it signed.
    signTime,
  });
  const errors = (result as { errors?: { err?: unknown }[] }).errors ?? [];
  if (errors.length > 0 || !result.signatures || result.signatures.trim() === '') {
    const cause = errors[0]?.err;
    throw new DkimSignError(
      `DKIM signing for ${key.domain} failed: ${cause instanceof Error ? cause.message : 'no signature produced'}`,
      { cause },
    );
  }
  return Buffer.concat([Buffer.from(result.signatures), raw]);
}

/**
 * Herald's own mail from HERALD_MAIL_DOMAIN (team notices, sign-in mail), which goes straight to the
 * transport: signed with the built-in domain's key, as team mail sent from that domain is.
 */
export function signAsHerald(raw: Buffer, secrets: Secrets, mailDomain: string, at: Date): Promise<Buffer> {
  const { privateKeyPem } = builtinDkimKey(secrets);
  return signMessage(raw, { domain: mailDomain, selector: BUILTIN_DKIM_SELECTOR, privateKeyPem }, at);
}
