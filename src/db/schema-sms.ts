// Table types of SMS (0012_sms.sql).
import type { ColumnType, Generated } from 'kysely';
import type { Timestamp } from './column-types.ts';

export const SMS_STATUSES = ['queued', 'sent', 'delivered', 'failed', 'rejected'] as const;
export type SmsStatus = (typeof SMS_STATUSES)[number];
export type SmsEncoding = 'GSM-7' | 'UCS-2';

export interface SmsMessagesTable {
  id: string;
  team_id: number;
  api_key_id: string | null;
  to_number: string;
  to_prefix: string;
  country: string;
  sender_id: string;
  body: string;
  encoding: SmsEncoding;
  segments: number;
  currency: string;
  charge_minor: bigint;
  charge_transaction_id: string | null;
  status: SmsStatus;
  reason_code: string | null;
  reason_message: string | null;
  provider: string | null;
  provider_message_id: string | null;
  client_ip_hash: Buffer | null;
  risk_score: ColumnType<number, number | undefined, number>;
  sent_at: Timestamp | null;
  delivered_at: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** The delivery queue: one row per queued message, deleted by its outcome. */
export interface SmsDeliveriesTable {
  sms_id: string;
  team_id: number;
  created_at: Timestamp;
  next_attempt_at: Timestamp;
  lease_until: Timestamp | null;
  attempts: Generated<number>;
  recorded_attempts: Generated<number>;
  /** The last retry's hand-off is unconfirmed: the next claim reconciles it (0012_sms.sql). */
  handed_off: Generated<boolean>;
  last_error: string | null;
  /** What sending needs, copied from the message when it is queued. */
  to_number: string;
  sender_id: string;
  body: string;
  charge_transaction_id: string | null;
}

/** Which message a provider's id names, for its delivery reports. */
export interface SmsProviderIdsTable {
  provider: string;
  provider_message_id: string;
  sms_id: string;
}

/** A delivery report whose provider id no message had yet, until the id appears. */
export interface SmsPendingReportsTable {
  provider: string;
  provider_message_id: string;
  /** A report status: sent, delivered, failed or rejected. */
  status: string;
  reason_code: string | null;
  reason_message: string | null;
  received_at: Timestamp;
  /** The recipient the report names, E.164, where the provider gives it. */
  recipient: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface SmsMonthlyVolumeTable {
  team_id: number;
  month: ColumnType<Date, string, string>;
  parts: ColumnType<bigint, bigint | undefined, bigint>;
}

export interface SmsOutboxTable {
  id: string;
  sms_id: string;
  to_number: string;
  sender_id: string;
  body: string;
  created_at: Timestamp;
}
