// Table types of email: the emails and their events, recipients and attachments, opens, the daily
// usage counters, the log transport's outbox, suppressions and address activity, and the inbound
// spool that bounces and complaints arrive through. Part of the Database in schema.ts.
import type { ColumnType, Generated } from 'kysely';
import type { Json, TemplateType, Timestamp } from './column-types.ts';

/** The contract's email states, in its order; the one list (API schemas and webhook event types use it). */
export const EMAIL_STATUSES = [
  'SCHEDULED',
  'QUEUED',
  'SENT',
  'DELIVERY_DELAYED',
  'BOUNCED',
  'REJECTED',
  'RENDERING_FAILURE',
  'DELIVERED',
  'OPENED',
  'CLICKED',
  'COMPLAINED',
  'FAILED',
  'CANCELLED',
  'SUPPRESSED',
] as const;
export type EmailStatus = (typeof EMAIL_STATUSES)[number];

/** A recipient field as sent: one address or a list. */
export type AddressField = string | string[];

/** Where an email came from (0023_email_source.sql): the HTTP API (and Herald's own senders) or SMTP submission. */
export const EMAIL_SOURCES = ['api', 'smtp'] as const;
export type EmailSource = (typeof EMAIL_SOURCES)[number];

export interface EmailsTable {
  id: string;
  team_id: number;
  domain_id: number | null;
  api_key_id: string | null;
  from: string;
  to: Json<AddressField | null>;
  cc: Json<AddressField | null>;
  bcc: Json<AddressField | null>;
  reply_to: Json<AddressField | null>;
  subject: string;
  html: string | null;
  text: string | null;
  headers: Json<Record<string, string> | null>;
  template_id: string | null;
  /** The campaign that sent it (0018_campaigns.sql). */
  campaign_id: ColumnType<string | null, string | null | undefined, string | null>;
  /** Delivered by the bulk lane: campaign and journey mail (0020_bulk_lane.sql). */
  bulk: ColumnType<boolean, boolean | undefined, boolean>;
  /** Sent to simulator addresses only: left out of the daily counters (0022_simulated_emails.sql). */
  simulated: ColumnType<boolean, boolean | undefined, boolean>;
  /** 'api' or 'smtp' (0023_email_source.sql). */
  source: ColumnType<EmailSource, EmailSource | undefined, EmailSource>;
  in_reply_to_id: string | null;
  type: ColumnType<TemplateType, TemplateType | undefined, TemplateType>;
  scheduled_at: Timestamp | null;
  status: EmailStatus;
  run_at: Timestamp;
  lease_until: Timestamp | null;
  attempts: ColumnType<number, number | undefined, number>;
  last_error: string | null;
  message_id: string | null;
  /** Deferred and waiting for the next attempt: latestStatus reads DELIVERY_DELAYED (0017_destinations.sql). */
  delivery_delayed: ColumnType<boolean, boolean | undefined, boolean>;
  /** When retention removed html, text and attachments (0027_monthly_partitions.sql); null while kept. */
  body_removed_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface EmailEventsTable {
  id: Generated<bigint>;
  team_id: number;
  email_id: string;
  status: EmailStatus;
  data: Json<unknown>;
  /** OPENED only: the tracked copy ('' for the email, else the MARKETING recipient). */
  open_key: string | null;
  created_at: Timestamp;
}

/** The tally of an OPENED event's later opens (0004_emails.sql; src/emails/email-opens.ts). */
export interface EmailOpensTable {
  email_id: string;
  open_key: string;
  open_count: number;
  last_opened_at: Timestamp;
  /** The latest opens, oldest first (at most LATER_OPENS_KEPT + 1), and their user agents. */
  recent_at: ColumnType<Date[], Date[] | string[], Date[] | string[]>;
  recent_user_agents: (string | null)[];
  /** When this copy last moved its recipients' address activity. */
  activity_at: Timestamp;
}

export interface EmailAttachmentsTable {
  email_id: string;
  position: number;
  filename: string;
  content: Buffer;
  /** An inline part's Content-ID, without angle brackets (0023_email_source.sql). */
  content_id: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface SuppressionsTable {
  team_id: number;
  email: string;
  reason: string;
  email_id: string | null;
  created_at: Timestamp;
}

export interface TeamDailyUsageTable {
  team_id: number;
  day: ColumnType<Date, string, string>;
  transactional: ColumnType<number, number | undefined, number>;
  marketing: ColumnType<number, number | undefined, number>;
}

export interface OutboxTable {
  id: Generated<bigint>;
  team_id: number | null;
  email_id: string | null;
  envelope_from: string;
  envelope_to: Json<string[]>;
  subject: string | null;
  raw: Buffer;
  created_at: Timestamp;
}

/** Latest event times per (team, address), kept by a trigger on email_events (0004_emails.sql). */
export interface AddressActivityTable {
  team_id: number;
  /** lower-cased */
  address: string;
  last_received_at: Date | null;
  last_opened_at: Date | null;
  last_clicked_at: Date | null;
  last_bounced_at: Date | null;
  last_complained_at: Date | null;
}

export interface EmailRecipientsTable {
  team_id: number;
  /** lower-cased */
  address: string;
  email_id: string;
}

export interface InboundMessagesTable {
  id: Generated<bigint>;
  received_at: Timestamp;
  /** '' for the null sender. */
  mail_from: string;
  rcpt_to: string[];
  remote_address: string;
  secure: boolean;
  raw: Buffer;
  due_at: Timestamp;
  lease_until: Timestamp | null;
  attempts: ColumnType<number, number | undefined, number>;
  last_error: string | null;
  failed_at: Timestamp | null;
}
