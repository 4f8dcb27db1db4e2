// The contract's SMS message object. The number is masked in every response.
import type { SmsRow } from './queries.ts';
import type { SmsMessage } from './schemas.ts';
import type { z } from 'zod';
import { maskPhone } from '../platform/phone.ts';
import { minorToDecimal, type Currency } from '../platform/money.ts';

export function smsView(row: SmsRow): z.infer<typeof SmsMessage> {
  return {
    id: row.id,
    to: maskPhone(row.to_number),
    status: row.status,
    segments: row.segments,
    charge: { currency: row.currency as Currency, amount: minorToDecimal(row.charge_minor, row.currency as Currency) },
    reason: row.reason_code === null ? null : { code: row.reason_code, message: row.reason_message ?? '' },
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}
