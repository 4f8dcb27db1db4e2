// Table types for Kysely. One interface per table; column names as in the migrations. Here the
// platform's, domains' and templates' tables and the Database they all form; the other areas' tables
// are in schema-<area>.ts (email, its recipients and what comes back about it in schema-email.ts).
import type { ColumnType, Generated, Selectable } from 'kysely';
import type { Currency, TemplateType, Timestamp } from './column-types.ts';
import type {
  AddressActivityTable,
  EmailAttachmentsTable,
  EmailEventsTable,
  EmailOpensTable,
  EmailRecipientsTable,
  EmailsTable,
  InboundMessagesTable,
  OutboxTable,
  SuppressionsTable,
  TeamDailyUsageTable,
} from './schema-email.ts';
import type {
  SmsDeliveriesTable,
  SmsMessagesTable,
  SmsMonthlyVolumeTable,
  SmsOutboxTable,
  SmsPendingReportsTable,
  SmsProviderIdsTable,
} from './schema-sms.ts';
import type { SenderIdsTable, WalletTransactionsTable, WalletsTable } from './schema-wallet.ts';
import type { VerificationMonthlyCodesTable, VerificationsTable } from './schema-verify.ts';
import type {
  BillingAuditLogTable,
  BillingCountersTable,
  BillingMethod,
  BillingTextSpendTable,
  ProMonthEventsTable,
  ProUnitChargesTable,
} from './schema-billing.ts';
import type { CampaignRecipientsTable, CampaignsTable, CampaignStatsTable } from './schema-campaigns.ts';
import type { JourneyEnrolmentsTable, JourneyRunsTable, JourneysTable, JourneyStatsTable } from './schema-journeys.ts';
import type { InboxAttachmentsTable, InboxesTable, InboxMessagesTable } from './schema-inboxes.ts';
import type { ContactBooksTable, ContactsTable, SegmentsTable, UnsubscribesTable } from './schema-contacts.ts';
import type { SessionsTable, SignInRequestsTable } from './schema-sessions.ts';
import type {
  TeamNoticesTable,
  WebhookCallsTable,
  WebhooksTable,
  WebhookTailEventsTable,
  WebhookTailsTable,
} from './schema-webhooks.ts';

// Every type of the area schema files is importable from here too.
export type * from './schema-email.ts';
export type * from './schema-sms.ts';
export type * from './schema-wallet.ts';
export type * from './schema-verify.ts';
export type * from './schema-billing.ts';
export type * from './schema-journeys.ts';
export type * from './schema-inboxes.ts';
export type * from './schema-contacts.ts';
export type * from './schema-webhooks.ts';
export type * from './schema-sessions.ts';

export type TeamPlan = 'free' | 'pro';
// One list of currencies: column-types.ts (platform/money.ts formats them).
export type { Currency };
export type MemberRole = 'OWNER' | 'ADMIN' | 'MEMBER';
export type ApiKeyKind = 'full' | 'readonly' | 'sending' | 'sandbox' | 'live_ai';

export interface SchemaMigrationsTable {
  version: number;
  name: string;
  applied_at: Timestamp;
}

export interface TeamsTable {
  id: Generated<number>;
  name: string;
  plan: ColumnType<TeamPlan, TeamPlan | undefined, TeamPlan>;
  currency: ColumnType<Currency, Currency | undefined, Currency>;
  sms_enabled: ColumnType<boolean, boolean | undefined, boolean>;
  api_rate_limit: ColumnType<number, number | undefined, number>;
  stripe_customer_id: string | null;
  billing_method: ColumnType<BillingMethod, BillingMethod | undefined, BillingMethod>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface MembersTable {
  id: Generated<number>;
  team_id: number;
  email: string;
  name: string | null;
  role: MemberRole;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface ApiKeysTable {
  id: string;
  team_id: number;
  kind: ApiKeyKind;
  name: string | null;
  key_hash: Buffer;
  key_hint: string;
  member_id: number | null;
  domain_id: number | null;
  created_at: Timestamp;
  /** To the minute; written by the principal cache at most once a minute per key (0021). */
  last_used_at: Timestamp | null;
}

export interface IdempotencyKeysTable {
  team_id: number;
  key: string;
  request_hash: string;
  state: 'in_progress' | 'completed';
  response_status: number | null;
  response_body: string | null;
  content_type: string | null;
  locked_until: Timestamp;
  created_at: Timestamp;
  expires_at: Timestamp;
}

export interface ChoresTable {
  name: string;
  next_run_at: Timestamp;
  lease_until: Timestamp | null;
  last_run_at: Timestamp | null;
  last_error: string | null;
}

export type DomainStatus = 'NOT_STARTED' | 'PENDING' | 'SUCCESS' | 'FAILED' | 'TEMPORARY_FAILURE';

export interface DomainsTable {
  id: Generated<number>;
  team_id: number;
  name: string;
  region: string;
  status: ColumnType<DomainStatus, DomainStatus | undefined, DomainStatus>;
  click_tracking: ColumnType<boolean, boolean | undefined, boolean>;
  open_tracking: ColumnType<boolean, boolean | undefined, boolean>;
  dkim_selector: string;
  dkim_public_key: string;
  /** Sealed with Secrets.encrypt; never PEM at rest. */
  dkim_private_key: string;
  return_path: string;
  dkim_record_status: ColumnType<DomainStatus, DomainStatus | undefined, DomainStatus>;
  spf_record_status: ColumnType<DomainStatus, DomainStatus | undefined, DomainStatus>;
  mx_record_status: ColumnType<DomainStatus, DomainStatus | undefined, DomainStatus>;
  dmarc_record_status: ColumnType<DomainStatus, DomainStatus | undefined, DomainStatus>;
  is_verifying: ColumnType<boolean, boolean | undefined, boolean>;
  error_message: string | null;
  verification_error: string | null;
  last_checked_at: Timestamp | null;
  verified_at: Timestamp | null;
  verify_requested_at: Timestamp | null;
  check_generation: ColumnType<number, number | undefined, number>;
  next_check_at: Timestamp;
  check_lease_until: Timestamp | null;
  check_attempts: ColumnType<number, number | undefined, number>;
  created_at: Timestamp;
  updated_at: Timestamp;
  deleted_at: Timestamp | null;
}

export type { TemplateType };

export interface TemplatesTable {
  id: string;
  team_id: number;
  name: string;
  subject: string;
  type: TemplateType;
  preview_text: string | null;
  content: string | null;
  html: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface Database {
  schema_migrations: SchemaMigrationsTable;
  teams: TeamsTable;
  members: MembersTable;
  api_keys: ApiKeysTable;
  idempotency_keys: IdempotencyKeysTable;
  chores: ChoresTable;
  domains: DomainsTable;
  templates: TemplatesTable;
  emails: EmailsTable;
  email_events: EmailEventsTable;
  email_opens: EmailOpensTable;
  email_attachments: EmailAttachmentsTable;
  suppressions: SuppressionsTable;
  team_daily_usage: TeamDailyUsageTable;
  outbox: OutboxTable;
  contact_books: ContactBooksTable;
  contacts: ContactsTable;
  unsubscribes: UnsubscribesTable;
  email_recipients: EmailRecipientsTable;
  address_activity: AddressActivityTable;
  segments: SegmentsTable;
  webhooks: WebhooksTable;
  webhook_calls: WebhookCallsTable;
  webhook_tails: WebhookTailsTable;
  webhook_tail_events: WebhookTailEventsTable;
  team_notices: TeamNoticesTable;
  inbound_messages: InboundMessagesTable;
  sms_messages: SmsMessagesTable;
  sms_deliveries: SmsDeliveriesTable;
  sms_provider_ids: SmsProviderIdsTable;
  sms_pending_reports: SmsPendingReportsTable;
  sms_monthly_volume: SmsMonthlyVolumeTable;
  sms_outbox: SmsOutboxTable;
  wallets: WalletsTable;
  wallet_transactions: WalletTransactionsTable;
  sender_ids: SenderIdsTable;
  verifications: VerificationsTable;
  verification_monthly_codes: VerificationMonthlyCodesTable;
  pro_month_events: ProMonthEventsTable;
  billing_counters: BillingCountersTable;
  pro_unit_charges: ProUnitChargesTable;
  billing_audit_log: BillingAuditLogTable;
  billing_text_spend: BillingTextSpendTable;
  journeys: JourneysTable;
  journey_stats: JourneyStatsTable;
  journey_runs: JourneyRunsTable;
  journey_enrolments: JourneyEnrolmentsTable;
  inboxes: InboxesTable;
  inbox_messages: InboxMessagesTable;
  inbox_attachments: InboxAttachmentsTable;
  destination_slots: DestinationSlotsTable;
  destination_backoffs: DestinationBackoffsTable;
  campaigns: CampaignsTable;
  campaign_stats: CampaignStatsTable;
  campaign_recipients: CampaignRecipientsTable;
  sign_in_requests: SignInRequestsTable;
  sessions: SessionsTable;
  retention_marks: RetentionMarksTable;
}

/** How far retention removed each family's bodies (0027_monthly_partitions.sql). */
export interface RetentionMarksTable {
  name: string;
  bodies_upto: string;
}

/** Direct delivery's connection slots per destination, across processes (0017_destinations.sql). */
export interface DestinationSlotsTable {
  destination: string;
  slot: number;
  holder: string;
  lease_until: Timestamp;
}

/** Destinations backed off after trouble (0017_destinations.sql). */
export interface DestinationBackoffsTable {
  destination: string;
  paused_until: Timestamp;
  connections: number;
  failures: number;
  reason: string;
  updated_at: Timestamp;
}

export type Team = Selectable<TeamsTable>;
export type Member = Selectable<MembersTable>;
