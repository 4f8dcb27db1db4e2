// Table types of one-time codes (0013_verify.sql).
import type { ColumnType } from 'kysely';
import type { Json, Timestamp } from './column-types.ts';

export const VERIFICATION_STATUSES = ['pending', 'verified', 'expired', 'failed', 'refused'] as const;
export type VerificationStatus = (typeof VERIFICATION_STATUSES)[number];
export type VerificationChannel = 'email' | 'sms';

export interface StoredRiskReason {
  code: string;
  detail: string;
}

export interface VerificationsTable {
  id: string;
  team_id: number;
  api_key_id: string | null;
  channel: VerificationChannel;
  to_address: string;
  to_prefix: string | null;
  country: string | null;
  status: VerificationStatus;
  code_hash: Buffer | null;
  attempts_remaining: number;
  expires_at: Timestamp;
  email_id: string | null;
  sms_id: string | null;
  client_ip_hash: Buffer | null;
  risk_score: number;
  risk_level: string;
  risk_reasons: Json<StoredRiskReason[]>;
  reason: string | null;
  verified_at: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** Codes sent per team and UTC month (the usage read's thisMonth.codes). */
export interface VerificationMonthlyCodesTable {
  team_id: number;
  month: ColumnType<Date, string, string>;
  shard: number;
  codes: ColumnType<bigint, bigint | undefined, bigint>;
}
