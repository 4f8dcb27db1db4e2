// Money and numbers of the SMS and code pages. The API gives a charge as a decimal string in the
// wallet's currency; Intl formats the string itself, so no float ever rounds it.
import type { components } from '../api/schema';

export type SmsMessage = components['schemas']['SmsMessage'];
export type Verification = components['schemas']['Verification'];

const formats = new Map<string, Intl.NumberFormat>();

export function formatCharge(charge: SmsMessage['charge']): string {
  let format = formats.get(charge.currency);
  if (!format) {
    format = new Intl.NumberFormat('en-US', {
      style: 'currency',
      currency: charge.currency,
      maximumFractionDigits: 6,
    });
    formats.set(charge.currency, format);
  }
  return format.format(charge.amount as `${number}`);
}

export const SMS_STATUSES = ['queued', 'sent', 'delivered', 'failed', 'rejected'] as const;
export type SmsStatus = (typeof SMS_STATUSES)[number];

export const isSmsStatus = (value: string | null): value is SmsStatus =>
  value !== null && (SMS_STATUSES as readonly string[]).includes(value);

/** Statuses a later report can still change: the list polls while one is shown. */
export const smsMoving = (status: string) => status === 'queued' || status === 'sent';
