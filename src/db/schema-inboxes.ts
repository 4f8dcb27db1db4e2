// Table types of team inboxes and their messages (0014_inboxes.sql; the bytes are in the blob store,
// and `raw`, `content` are written by nothing: message-bytes.ts still reads them as a fallback).
import type { ColumnType, Selectable } from 'kysely';
import type { Json, Timestamp } from './column-types.ts';

export interface InboxesTable {
  id: string;
  team_id: number;
  name: string;
  address: string;
  domain_id: number | null;
  created_at: Timestamp;
  deleted_at: Timestamp | null;
}

export interface InboxMessagesTable {
  id: string;
  team_id: number;
  inbox_id: string;
  conversation_id: string;
  header_message_id: string | null;
  mail_from: string;
  from: string;
  to: string[];
  cc: string[];
  subject: string;
  text: string | null;
  html: string | null;
  stripped_text: string | null;
  contact_id: string | null;
  in_reply_to_email_id: string | null;
  spam_verdict: string;
  is_spam: boolean;
  spam_details: Json<unknown>;
  remote_address: string;
  raw: Buffer | null;
  raw_size: number;
  raw_removed_at: Timestamp | null;
  /** The pack file in the blob store holding the original and the attachments (null: older rows). */
  blob_key: string | null;
  raw_offset: number | null;
  received_at: Timestamp;
}

export interface InboxAttachmentsTable {
  message_id: string;
  position: number;
  team_id: number;
  filename: string;
  content_type: string;
  size: number;
  content_id: string | null;
  content: ColumnType<Buffer | null, Buffer | null, Buffer | null>;
  /** Where the attachment starts in its message's pack (null: older rows). */
  blob_offset: number | null;
}

export type InboxRow = Selectable<InboxesTable>;
