// What earlier attempts of one email already settled, read back from its events: recipients that a
// server accepted (kept in DELIVERY_DELAYED events when the rest was deferred), that bounced, or that
// were suppressed. A retry sends only to the others, so nobody gets the message twice.
import type { EmailStatus } from '../db/schema.ts';

export interface DeliveryProgress {
  accepted: Set<string>;
  bounced: Set<string>;
  suppressed: Set<string>;
  /** A DELIVERY_DELAYED event was written already (only the first delay is announced). */
  delayed: boolean;
}

const strings = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];

export function progressOf(events: { status: EmailStatus; data: unknown }[]): DeliveryProgress {
  const progress: DeliveryProgress = { accepted: new Set(), bounced: new Set(), suppressed: new Set(), delayed: false };
  for (const { status, data } of events) {
    const fields = (data ?? {}) as Record<string, unknown>;
    if (status === 'DELIVERY_DELAYED') {
      progress.delayed = true;
      for (const r of strings(fields.accepted)) progress.accepted.add(r);
    } else if (status === 'BOUNCED' && typeof fields.recipient === 'string') {
      progress.bounced.add(fields.recipient);
    } else if (status === 'SUPPRESSED') {
      for (const r of strings(fields.recipients)) progress.suppressed.add(r);
    }
  }
  return progress;
}
