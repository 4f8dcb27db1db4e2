// Two signatures over the same body and secret, so receivers keep the library they have:
// - Standard Webhooks (https://www.standardwebhooks.com): HMAC-SHA256 keyed with the base64-decoded
//   part of the secret after `whsec_`, over "<id>.<timestamp seconds>.<body>", sent as
//   `webhook-signature: v1,<base64>` (and as the contract's `X-Service-Signature`).
// - useSend's (its `usesend-js` SDK, `webhooks(secret).constructEvent`): HMAC-SHA256 keyed with the
//   whole secret string as UTF-8, over "<timestamp milliseconds>.<body>", sent as
//   `X-UseSend-Signature: v1=<hex>` with `X-UseSend-Timestamp`, so useSend users switch unchanged.
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
interface SigningKeys {
  standard: KeyObject;
  usesend: KeyObject;
}
const keys = new Map<string, SigningKeys>();

function signingKeys(secret: string): SigningKeys {
  let found = keys.get(secret);
  if (found === undefined) {
    found = {
      standard: createSecretKey(
        Buffer.from(secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret, 'base64'),
      ),
      usesend: createSecretKey(Buffer.from(secret, 'utf8')),
    };
    if (keys.size >= 1_000) keys.clear();
    keys.set(secret, found);
  }
  return found;
}

/** What one attempt of one call is: the call id, its event type, which attempt, and when (the clock). */
export interface AttemptStamp {
  id: string;
  type: string;
  attempt: number;
  at: Date;
}

/**
 * The headers of one attempt: Standard Webhooks' three, the contract's signature header, and
 * useSend's five (event, call, timestamp, signature, retry; its user agent is not imitated).
 */
export function signedHeaders(secret: string, stamp: AttemptStamp, body: string): Record<string, string> {
  const { standard, usesend } = signingKeys(secret);
  const seconds = Math.floor(stamp.at.getTime() / 1000);
  const millis = String(stamp.at.getTime());
  const signature = `v1,${createHmac('sha256', standard).update(`${stamp.id}.${seconds}.${body}`).digest('base64')}`;
  const usesendSignature = `v1=${createHmac('sha256', usesend).update(`${millis}.${body}`).digest('hex')}`;
  return {
    'content-type': 'application/json',
    'user-agent': 'Herald-Webhooks/1',
    'webhook-id': stamp.id,
    'webhook-timestamp': String(seconds),
    'webhook-signature': signature,
    'x-service-signature': signature,
    'x-usesend-event': stamp.type,
    'x-usesend-call': stamp.id,
    'x-usesend-timestamp': millis,
    'x-usesend-signature': usesendSignature,
    'x-usesend-retry': stamp.attempt > 1 ? 'true' : 'false',
  };
}
