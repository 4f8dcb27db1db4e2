// The contract's Verification object. The code never appears; an SMS code's delivery follows its message.
import type { z } from 'zod';
import type { RiskLevel } from '../platform/risk.ts';
import type { VerificationRow } from './queries.ts';
import type { CheckReason, Verification } from './schemas.ts';

export interface SmsDelivery {
  status: 'queued' | 'sent' | 'delivered' | 'failed' | 'rejected';
  providerMessageId: string | null;
  reason: string | null;
}

export function deliveryOf(row: {
  sms_status: string | null;
  sms_provider_message_id: string | null;
  sms_reason_message: string | null;
}): SmsDelivery | null {
  if (row.sms_status === null) return null;
  return {
    status: row.sms_status as SmsDelivery['status'],
    providerMessageId: row.sms_provider_message_id,
    reason: row.sms_reason_message,
  };
}

/** `reason` is this check's outcome when given, else the last one stored (`refused` for a refusal). */
export function verificationView(
  row: VerificationRow,
  delivery: SmsDelivery | null,
  reason?: CheckReason,
): z.infer<typeof Verification> {
  const shown = reason ?? (row.status === 'refused' ? 'refused' : ((row.reason as CheckReason | null) ?? undefined));
  const failedDelivery = delivery !== null && (delivery.status === 'failed' || delivery.status === 'rejected');
  return {
    id: row.id,
    to: row.to_address,
    status: row.status,
    expiresAt: row.expires_at.toISOString(),
    attemptsRemaining: row.attempts_remaining,
    emailId: row.email_id,
    channel: row.channel,
    providerMessageId: delivery?.providerMessageId ?? null,
    deliveryStatus: delivery?.status ?? null,
    deliveryReason: failedDelivery ? (delivery.reason ?? 'The SMS could not be delivered') : null,
    risk: { score: row.risk_score, level: row.risk_level as RiskLevel, reasons: row.risk_reasons },
    verified: row.status === 'verified',
    ...(shown === undefined ? {} : { reason: shown }),
    createdAt: row.created_at.toISOString(),
  };
}
