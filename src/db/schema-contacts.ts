// Table types of contact books, their contacts, unsubscribes and segments (0005_contacts.sql,
// 0006_segments.sql). Part of the Database in schema.ts.
import type { ColumnType } from 'kysely';
import type { Timestamp } from './column-types.ts';

export interface ContactBooksTable {
  id: string;
  team_id: number;
  name: string;
  emoji: string;
  properties: ColumnType<Record<string, string>, string | undefined, string>;
  variables: ColumnType<string[], string | undefined, string>;
  double_opt_in_enabled: ColumnType<boolean, boolean | undefined, boolean>;
  double_opt_in_from: string | null;
  double_opt_in_subject: string | null;
  double_opt_in_content: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface ContactsTable {
  id: string;
  team_id: number;
  contact_book_id: string;
  email: string;
  first_name: string | null;
  last_name: string | null;
  subscribed: ColumnType<boolean, boolean | undefined, boolean>;
  properties: ColumnType<Record<string, string>, string | undefined, string>;
  confirmed_at: Timestamp | null;
  confirmation_due_at: Timestamp | null;
  confirmation_lease_until: Timestamp | null;
  confirmation_attempts: ColumnType<number, number | undefined, number>;
  confirmation_sent_at: Timestamp | null;
  unsubscribed_at: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface UnsubscribesTable {
  team_id: number;
  email: string;
  email_id: string | null;
  created_at: Timestamp;
}

export interface SegmentsTable {
  id: string;
  team_id: number;
  contact_book_id: string;
  name: string;
  description: string | null;
  /** {version, match, conditions}; see src/segments/definition.ts */
  definition: ColumnType<unknown, string, string>;
  created_at: Timestamp;
  updated_at: Timestamp;
}
