// How one delivery attempt's answers are written down: the data of an outcome's event, a bounce's
// verdict, the email's final status, and when a backed-off destination's messages come back.
import { randomInt } from 'node:crypto';
import type { MailTransport, RecipientOutcome } from '../adapters/mail-transport/index.ts';
import type { EmailStatus } from '../db/schema.ts';
import type { DeliveryBounces } from './delivery-write.ts';
import { isSimulated } from './simulator.ts';

export const outcomeData = (o: RecipientOutcome) => ({
  recipient: o.recipient,
  response: o.response,
  ...(o.responseCode === undefined ? {} : { responseCode: o.responseCode }),
  ...(o.host === undefined ? {} : { remoteMta: o.host }),
});

/** A BOUNCED event's verdict, named as in a DSN's (feedback): `status` is the enhanced status code. */
export const verdictData = (v: ReturnType<DeliveryBounces['classify']>) => ({
  bounceType: v.bounceType,
  category: v.category,
  reason: v.reason,
  ...(v.status === null ? {} : { status: v.status }),
});

/** The final status once no recipient is left: someone got it, or everyone bounced, or nobody was sendable. */
export function finalStatus(transport: MailTransport, accepted: string[], bouncedAny: boolean): EmailStatus {
  // The direct transport's 250 comes from the recipient's own MX: that is delivery. A relay's is not;
  // the simulator is the recipient's own receiver.
  if (accepted.length > 0) return transport.kind === 'direct' || accepted.every(isSimulated) ? 'DELIVERED' : 'SENT';
  return bouncedAny ? 'BOUNCED' : 'SUPPRESSED';
}

/** When the destination takes messages again, spread over a tenth more so that its queue does not return at once. */
export function destinationRetryAt(temporary: RecipientOutcome[], now: Date): Date {
  const until = Math.max(...temporary.map((o) => o.destinationPausedUntil!.getTime()));
  const span = Math.max(1_000, (until - now.getTime()) / 10);
  return new Date(until + randomInt(0, Math.ceil(span)));
}
