// Table types of webhooks and their call log (0007_webhooks.sql), of team notices (0008_notices.sql)
// and of the event tail (0024_webhook_event_tail.sql). Part of the Database in schema.ts.
import type { ColumnType, Generated } from 'kysely';
import type { Timestamp } from './column-types.ts';

export type WebhookStatus = 'ACTIVE' | 'PAUSED' | 'AUTO_DISABLED';
export type WebhookCallStatus = 'PENDING' | 'IN_PROGRESS' | 'DELIVERED' | 'FAILED' | 'DISCARDED';

export interface WebhooksTable {
  id: string;
  team_id: number;
  url: string;
  description: string | null;
  status: WebhookStatus;
  event_types: ColumnType<string[], string[] | undefined, string[]>;
  domain_ids: ColumnType<number[], number[] | undefined, number[]>;
  api_version: string | null;
  /** Sealed with Secrets.encrypt. */
  secret_sealed: string;
  secret_hint: string;
  consecutive_failures: ColumnType<number, number | undefined, number>;
  failing_since: Timestamp | null;
  last_failure_at: Timestamp | null;
  last_success_at: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface WebhookCallsTable {
  id: string;
  team_id: number;
  webhook_id: string;
  type: string;
  payload: string;
  api_version: string | null;
  status: WebhookCallStatus;
  attempt: ColumnType<number, number | undefined, number>;
  next_attempt_at: Timestamp | null;
  lease_until: Timestamp | null;
  last_error: string | null;
  response_status: number | null;
  response_time_ms: number | null;
  response_text: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface TeamNoticesTable {
  id: Generated<bigint>;
  team_id: number;
  kind: string;
  recipients: string[];
  subject: string;
  text: string;
  due_at: Timestamp;
  lease_until: Timestamp | null;
  attempts: ColumnType<number, number | undefined, number>;
  sent_at: Timestamp | null;
  last_error: string | null;
  created_at: Timestamp;
}

export interface WebhookTailsTable {
  team_id: number;
  /** Events of the team are recorded for the tail until then; every read of the tail moves it on. */
  open_until: Timestamp;
}

export interface WebhookTailEventsTable {
  id: Generated<string>;
  team_id: number;
  /** xid8 of the writing transaction, as text. */
  xid: Generated<string>;
  type: string;
  domain_id: number | null;
  payload: string;
  created_at: Timestamp;
}
