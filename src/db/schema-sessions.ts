// Table types of dashboard sign-in and sessions (0025_sessions.sql, src/sessions/).
import type { ColumnType } from 'kysely';
import type { Timestamp } from './column-types.ts';

/** A sign-in by email (link and code) or minted by the operator (link only); used_at ends it. */
export interface SignInRequestsTable {
  id: string;
  email: string;
  token_hash: Buffer;
  /** null: an operator's link, which has no code. */
  code_hash: Buffer | null;
  code_attempts: ColumnType<number, number | undefined, number>;
  expires_at: Timestamp;
  used_at: Timestamp | null;
  created_at: Timestamp;
  /** The link and code, encrypted, until the sign-in-mail queue has sent them; then null. */
  mail_sealed: string | null;
  mail_due_at: Timestamp;
  lease_until: Timestamp | null;
  mail_attempts: ColumnType<number, number | undefined, number>;
  mail_error: string | null;
}

export interface SessionsTable {
  id: string;
  /** Lower-case: the member rows with this address are the session's teams. */
  email: string;
  token_hash: Buffer;
  user_agent: string | null;
  created_at: Timestamp;
  last_seen_at: Timestamp;
}
