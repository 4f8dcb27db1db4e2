// The SQL of received messages, team id first: storing one (with its attachments), the threading
// lookup made while storing, the list and reads, and the retention chore's removal.
// The bytes themselves (original, attachments) are in the blob store (message-bytes.ts); the bytea
// columns `raw` and `content` are only read (rows stored before it) and cleared by retention.
import { sql, type Kysely, type Selectable, type Transaction } from 'kysely';
import type { Database, InboxMessagesTable } from '../db/schema.ts';

type Db = Kysely<Database> | Transaction<Database>;

export type InboxMessageRow = Omit<Selectable<InboxMessagesTable>, 'raw'> & { inbox_name: string };

export interface AttachmentMeta {
  message_id: string;
  position: number;
  filename: string;
  content_type: string;
  size: number;
  content_id: string | null;
}

export interface NewInboxMessage {
  id: string;
  teamId: number;
  inboxId: string;
  conversationId: string;
  headerMessageId: string | null;
  mailFrom: string;
  from: string;
  to: string[];
  cc: string[];
  subject: string;
  text: string | null;
  html: string | null;
  strippedText: string | null;
  contactId: string | null;
  inReplyToEmailId: string | null;
  spamVerdict: string;
  isSpam: boolean;
  spamDetails: unknown;
  remoteAddress: string;
  raw: Buffer;
  receivedAt: Date;
  attachments: { filename: string; contentType: string; contentId: string | null; content: Buffer }[];
}

// parseInboundMessage already removed NUL (PostgreSQL text cannot hold it); the envelope may carry one.
// The rows travel as JSON, where a lone surrogate would be refused: it becomes U+FFFD, as UTF-8 would.
const clean = (value: string) => value.replace(/\0/g, '').toWellFormed();
const cleanOrNull = (value: string | null) => (value === null ? null : clean(value));

/** Where a message's bytes are in the blob store (message-bytes.ts). */
export interface StoredBytes {
  blobKey: string;
  rawOffset: number;
  attachmentOffsets: number[];
}

/**
 * The batch's messages in one INSERT, their attachments in another (a transaction's worth of mail).
 * Their bytes must already be in the blob store (writeMessageBytes): `places`, one per message. The
 * rows go as one JSON parameter, so the statement's text is the same whatever the batch's size
 * (prepared once per connection, src/db/prepared-pool.ts).
 */
export async function insertInboxMessages(
  tx: Transaction<Database>,
  messages: NewInboxMessage[],
  places: StoredBytes[],
): Promise<void> {
  if (messages.length === 0) return;
  const rows = messages.map((m, i) => ({
    id: m.id,
    team_id: m.teamId,
    inbox_id: m.inboxId,
    conversation_id: m.conversationId,
    header_message_id: cleanOrNull(m.headerMessageId),
    mail_from: clean(m.mailFrom),
    from: clean(m.from),
    to: m.to.map(clean),
    cc: m.cc.map(clean),
    subject: clean(m.subject),
    text: cleanOrNull(m.text),
    html: cleanOrNull(m.html),
    stripped_text: cleanOrNull(m.strippedText),
    contact_id: m.contactId,
    in_reply_to_email_id: m.inReplyToEmailId,
    spam_verdict: m.spamVerdict,
    is_spam: m.isSpam,
    spam_details: m.spamDetails,
    remote_address: m.remoteAddress,
    raw_size: m.raw.length,
    blob_key: places[i]!.blobKey,
    raw_offset: places[i]!.rawOffset,
    received_at: m.receivedAt.toISOString(),
  }));
  await sql`
    INSERT INTO inbox_messages (id, team_id, inbox_id, conversation_id, header_message_id, mail_from, "from", "to",
      cc, subject, text, html, stripped_text, contact_id, in_reply_to_email_id, spam_verdict, is_spam, spam_details,
      remote_address, raw_size, blob_key, raw_offset, received_at)
    SELECT id, team_id, inbox_id, conversation_id, header_message_id, mail_from, "from", "to",
      cc, subject, text, html, stripped_text, contact_id, in_reply_to_email_id, spam_verdict, is_spam, spam_details,
      remote_address, raw_size, blob_key, raw_offset, received_at
    FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS m (id text, team_id int, inbox_id text,
      conversation_id text, header_message_id text, mail_from text, "from" text, "to" text[], cc text[], subject text,
      text text, html text, stripped_text text, contact_id text, in_reply_to_email_id text, spam_verdict text,
      is_spam boolean, spam_details jsonb, remote_address text, raw_size int, blob_key text, raw_offset int,
      received_at timestamptz)`.execute(tx);
  const attachments = messages.flatMap((m, i) =>
    m.attachments.map((a, position) => ({
      message_id: m.id,
      position,
      team_id: m.teamId,
      filename: clean(a.filename),
      content_type: clean(a.contentType),
      size: a.content.length,
      content_id: cleanOrNull(a.contentId),
      blob_offset: places[i]!.attachmentOffsets[position]!,
    })),
  );
  if (attachments.length === 0) return;
  await sql`
    INSERT INTO inbox_attachments (message_id, position, team_id, filename, content_type, size, content_id, blob_offset)
    SELECT message_id, position, team_id, filename, content_type, size, content_id, blob_offset
    FROM jsonb_to_recordset(${JSON.stringify(attachments)}::jsonb) AS a (message_id text, position int, team_id int,
      filename text, content_type text, size int, content_id text, blob_offset int)`.execute(tx);
}

/** Earlier messages of the team with one of these Message-IDs: their conversation, by Message-ID. */
export async function conversationsByHeaderId(db: Db, teamId: number, ids: string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const { rows } = await sql<{ header_message_id: string; conversation_id: string }>`
    SELECT DISTINCT ON (header_message_id) header_message_id, conversation_id FROM inbox_messages
    WHERE team_id = ${teamId}::int AND header_message_id = ANY(${ids}::text[])
    ORDER BY header_message_id, received_at, id`.execute(db);
  return new Map(rows.map((row) => [row.header_message_id, row.conversation_id]));
}

/** The conversation of the first earlier message answering this sent email, if any. */
export async function conversationAnsweringEmail(db: Db, teamId: number, emailId: string): Promise<string | null> {
  const { rows } = await sql<{ conversation_id: string }>`
    SELECT conversation_id FROM inbox_messages
    WHERE team_id = ${teamId}::int AND in_reply_to_email_id = ${emailId}
    ORDER BY received_at, id LIMIT 1`.execute(db);
  return rows[0]?.conversation_id ?? null;
}

const MESSAGE_COLUMNS = sql`m.id, m.team_id, m.inbox_id, m.conversation_id, m.header_message_id, m.mail_from,
  m."from", m."to", m.cc, m.subject, m.text, m.html, m.stripped_text, m.contact_id, m.in_reply_to_email_id,
  m.spam_verdict, m.is_spam, m.spam_details, m.remote_address, m.raw_size, m.raw_removed_at, m.received_at,
  i.name AS inbox_name`;

export interface ListPosition {
  receivedAt: Date;
  id: string;
}

/** Newest first, spam left out; `inboxIds` null for every inbox. */
export async function listInboxMessages(
  db: Db,
  teamId: number,
  options: { inboxIds: string[] | null; after?: ListPosition; limit: number },
): Promise<InboxMessageRow[]> {
  const inbox = options.inboxIds === null ? sql`` : sql`AND m.inbox_id = ANY(${options.inboxIds}::text[])`;
  const after =
    options.after === undefined
      ? sql``
      : sql`AND (m.received_at, m.id) < (${options.after.receivedAt}::timestamptz, ${options.after.id}::text)`;
  const { rows } = await sql<InboxMessageRow>`
    SELECT ${MESSAGE_COLUMNS} FROM inbox_messages m JOIN inboxes i ON i.id = m.inbox_id
    WHERE m.team_id = ${teamId}::int AND NOT m.is_spam ${inbox} ${after}
    ORDER BY m.received_at DESC, m.id DESC
    LIMIT ${options.limit}`.execute(db);
  return rows;
}

export async function getInboxMessage(db: Db, teamId: number, id: string): Promise<InboxMessageRow | undefined> {
  const { rows } = await sql<InboxMessageRow>`
    SELECT ${MESSAGE_COLUMNS} FROM inbox_messages m JOIN inboxes i ON i.id = m.inbox_id
    WHERE m.team_id = ${teamId}::int AND m.id = ${id}`.execute(db);
  return rows[0];
}

/** The team's inbox ids for an inbox filter: an id, or an address (every inbox that had it). */
export async function inboxIdsMatching(db: Db, teamId: number, idOrAddress: string): Promise<string[]> {
  const { rows } = await sql<{ id: string }>`
    SELECT id FROM inboxes WHERE team_id = ${teamId}::int AND (id = ${idOrAddress} OR address = ${idOrAddress.toLowerCase()})`.execute(
    db,
  );
  return rows.map((row) => row.id);
}

export async function attachmentsOf(db: Db, teamId: number, messageIds: string[]): Promise<AttachmentMeta[]> {
  if (messageIds.length === 0) return [];
  const { rows } = await sql<AttachmentMeta>`
    SELECT message_id, position, filename, content_type, size, content_id FROM inbox_attachments
    WHERE team_id = ${teamId}::int AND message_id = ANY(${messageIds}::text[])
    ORDER BY message_id, position`.execute(db);
  return rows;
}

/** The pack that holds a message's bytes (null: an older row) and whether retention removed them. */
interface BytesPlace {
  blob_key: string | null;
  raw_removed_at: Date | null;
}

export interface OriginalRow extends BytesPlace {
  raw_offset: number | null;
  raw_size: number;
  /** The original as rows kept it before the blob store; null for every newer message. */
  raw: Uint8Array | null;
}

export async function originalOf(db: Db, teamId: number, id: string): Promise<OriginalRow | undefined> {
  const { rows } = await sql<OriginalRow>`
    SELECT blob_key, raw_offset, raw_size, raw_removed_at, raw FROM inbox_messages
    WHERE team_id = ${teamId}::int AND id = ${id}`.execute(db);
  return rows[0];
}

export interface AttachmentRow extends BytesPlace {
  filename: string;
  content_type: string;
  size: number;
  blob_offset: number | null;
  /** The bytes as rows kept them before the blob store; null for every newer message. */
  content: Uint8Array | null;
}

export async function attachmentOf(
  db: Db,
  teamId: number,
  messageId: string,
  position: number,
): Promise<AttachmentRow | undefined> {
  const { rows } = await sql<AttachmentRow>`
    SELECT a.filename, a.content_type, a.size, a.blob_offset, a.content, m.blob_key, m.raw_removed_at
    FROM inbox_attachments a JOIN inbox_messages m ON m.id = a.message_id
    WHERE a.team_id = ${teamId}::int AND m.team_id = ${teamId}::int
      AND a.message_id = ${messageId} AND a.position = ${position}::int`.execute(db);
  return rows[0];
}

/**
 * Retention (all teams: a chore): marks originals received before `before` as removed (and clears
 * the bytes older rows kept in the database), at most `batch` messages at a time. Answers how many
 * it marked; the packs go with their hour's directory (retention.ts).
 */
export async function removeOldOriginals(
  db: Kysely<Database>,
  before: Date,
  now: Date,
  batch: number,
): Promise<number> {
  return db.transaction().execute(async (tx) => {
    const { rows } = await sql<{ id: string }>`
      UPDATE inbox_messages SET raw = NULL, raw_removed_at = ${now}
      WHERE id IN (SELECT id FROM inbox_messages WHERE raw_removed_at IS NULL AND received_at < ${before}::timestamptz
                   ORDER BY received_at LIMIT ${batch} FOR UPDATE SKIP LOCKED)
      RETURNING id`.execute(tx);
    if (rows.length > 0)
      await sql`UPDATE inbox_attachments SET content = NULL
        WHERE message_id = ANY(${rows.map((r) => r.id)}::text[]) AND content IS NOT NULL`.execute(tx);
    return rows.length;
  });
}
