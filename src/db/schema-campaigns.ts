// Table types of campaigns, their counters and their recipients (0018_campaigns.sql).
import type { ColumnType, Generated } from 'kysely';
import type { Timestamp } from './column-types.ts';

export const CAMPAIGN_STATUSES = ['DRAFT', 'SCHEDULED', 'RUNNING', 'PAUSED', 'SENT'] as const;
export type CampaignStatus = (typeof CAMPAIGN_STATUSES)[number];
export const PAUSED_REASONS = ['MANUAL', 'QUOTA'] as const;
export type PausedReason = (typeof PAUSED_REASONS)[number];

type Json<T> = ColumnType<T, string | undefined, string>;

export interface CampaignsTable {
  id: string;
  team_id: number;
  name: string;
  from: string;
  domain_id: number;
  subject: string;
  preview_text: string | null;
  contact_book_id: string;
  segment_id: string | null;
  template_id: string | null;
  html: string | null;
  content: string | null;
  reply_to: Json<string[]>;
  cc: Json<string[]>;
  bcc: Json<string[]>;
  status: CampaignStatus;
  paused_reason: PausedReason | null;
  scheduled_at: Timestamp | null;
  batch_size: number;
  batch_window_minutes: number;
  next_batch_at: Timestamp | null;
  lease_until: Timestamp | null;
  attempts: Generated<number>;
  last_error: string | null;
  started_at: Timestamp | null;
  finished_at: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface CampaignStatsTable {
  campaign_id: string;
  team_id: number;
  total: Generated<number>;
  unsubscribed: Generated<number>;
}

export interface CampaignRecipientsTable {
  campaign_id: string;
  contact_id: string;
  email: string;
  email_id: string | null;
}
