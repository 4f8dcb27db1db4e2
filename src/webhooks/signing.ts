// Standard Webhooks signing (https://www.standardwebhooks.com): the secret is `whsec_` + base64 of
// random bytes; each attempt is signed as HMAC-SHA256(secret bytes, "<id>.<timestamp>.<body>") and
// sent as `webhook-signature: v1,<base64>`. Receivers can verify with any Standard Webhooks library.
import { createHmac, createSecretKey, randomBytes, type KeyObject } from 'node:crypto';

const PREFIX = 'whsec_';
// The specification asks for 24 to 64 bytes; 32 gives HMAC-SHA256 a full-size key.
const SECRET_BYTES = 32;

export function newSigningSecret(): string {
  return PREFIX + randomBytes(SECRET_BYTES).toString('base64');
}

/** What the API shows instead of the secret: the prefix and the last four characters. */
export function secretHint(secret: string): string {
  return `${PREFIX}${'*'.repeat(8)}${secret.slice(-4)}`;
}

// Keys by secret: decoding and wrapping the key on every attempt showed in the delivery profile.
const keys = new Map<string, KeyObject>();

function secretKey(secret: string): KeyObject {
  let key = keys.get(secret);
  if (key === undefined) {
    key = createSecretKey(Buffer.from(secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret, 'base64'));
    if (keys.size >= 1_000) keys.clear();
    keys.set(secret, key);
  }
  return key;
}

/** The value of `webhook-signature` (and of the contract's `X-Service-Signature`). */
function signPayload(secret: string, id: string, timestampSeconds: number, body: string): string {
  const mac = createHmac('sha256', secretKey(secret)).update(`${id}.${timestampSeconds}.${body}`).digest('base64');
  return `v1,${mac}`;
}

/** The headers of one attempt: Standard Webhooks' three and the contract's signature header. */
export function signedHeaders(
  secret: string,
  id: string,
  timestampSeconds: number,
  body: string,
): Record<string, string> {
  const signature = signPayload(secret, id, timestampSeconds, body);
  return {
    'content-type': 'application/json',
    'user-agent': 'Herald-Webhooks/1',
    'webhook-id': id,
    'webhook-timestamp': String(timestampSeconds),
    'webhook-signature': signature,
    'x-service-signature': signature,
  };
}
