// Table types of journeys and their runs (0015_journeys.sql; the stats in journey_stats).
import type { ColumnType, Generated } from 'kysely';
import type { Timestamp } from './column-types.ts';

export const JOURNEY_STATUSES = ['DRAFT', 'PENDING_REVIEW', 'ACTIVE', 'PAUSED', 'ARCHIVED'] as const;
export type JourneyStatus = (typeof JOURNEY_STATUSES)[number];
export const JOURNEY_TRIGGERS = ['CONTACT_ADDED', 'API'] as const;
export type JourneyTrigger = (typeof JOURNEY_TRIGGERS)[number];
export const RUN_STATUSES = ['ACTIVE', 'COMPLETED', 'EXITED', 'FAILED'] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];
export const EXIT_REASONS = [
  'UNSUBSCRIBED',
  'JOURNEY_ARCHIVED',
  'CONTACT_DELETED',
  'SEND_FAILED',
  'PROCESSING_ERROR',
] as const;
export type ExitReason = (typeof EXIT_REASONS)[number];

type Json<T> = ColumnType<T, string, string>;

export interface JourneysTable {
  id: string;
  team_id: number;
  name: string;
  status: JourneyStatus;
  trigger_type: JourneyTrigger;
  contact_book_id: string | null;
  segment_id: string | null;
  exit_when_leaves_segment: ColumnType<boolean, boolean | undefined, boolean>;
  steps: Json<unknown[]>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** A journey's stats counters, changed with the runs; locked after the runs, never before. */
export interface JourneyStatsTable {
  journey_id: string;
  team_id: number;
  enrolled: Generated<number>;
  active: Generated<number>;
  completed: Generated<number>;
  exited: Generated<number>;
  failed: Generated<number>;
  sent_by_step: ColumnType<Record<string, number>, string | undefined, string>;
}

export interface JourneyRunsTable {
  id: string;
  team_id: number;
  journey_id: string;
  contact_id: string;
  status: RunStatus;
  current_step_index: Generated<number>;
  next_run_at: Timestamp;
  exit_reason: ExitReason | null;
  history: ColumnType<unknown[], string | undefined, string>;
  /** The emails the run's last turn queued; it is not taken again while one is unsent. */
  awaiting_email_ids: ColumnType<string[], string[] | undefined, string[]>;
  lease_until: Timestamp | null;
  attempts: Generated<number>;
  last_error: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface JourneyEnrolmentsTable {
  id: string;
  team_id: number;
  journey_id: string;
  contact_ids: string[];
  due_at: Timestamp;
  lease_until: Timestamp | null;
  attempts: Generated<number>;
  created_at: Timestamp;
}
