// The bytes of received messages (originals and attachments) in the blob store: a batch's bytes one
// after the other in ONE pack file (blob-keys.ts), each row naming its pack and where its bytes start
// (their lengths are raw_size and the attachments' size). One file per message cost more than the
// rest of the intake (bench/RESULTS.md). The pack is written before the rows that name it commit, so
// a committed message never points at bytes that are not on disk; a batch that rolls back leaves a
// pack nobody names, which the retention sweep of its hour removes. Read back by range, or from the
// row for messages stored before the blob store (their bytea columns still hold the bytes).
import type { Kysely } from 'kysely';
import type { BlobStore } from '../adapters/blob-store/index.ts';
import type { Database } from '../db/schema.ts';
import { newPackKey } from './blob-keys.ts';
import { attachmentOf, originalOf, type NewInboxMessage, type StoredBytes } from './message-queries.ts';

/** Writes the batch's pack; resolves, once it is durable, with each message's place in it. */
export async function writeMessageBytes(
  blobs: BlobStore,
  messages: readonly NewInboxMessage[],
): Promise<StoredBytes[]> {
  if (messages.length === 0) return [];
  const latest = new Date(Math.max(...messages.map((m) => m.receivedAt.getTime())));
  const blobKey = newPackKey(latest);
  const parts: Buffer[] = [];
  let offset = 0;
  const place = (bytes: Buffer) => {
    parts.push(bytes);
    offset += bytes.length;
    return offset - bytes.length;
  };
  const places = messages.map((m) => ({
    blobKey,
    rawOffset: place(m.raw),
    attachmentOffsets: m.attachments.map((a) => place(a.content)),
  }));
  await blobs.put(blobKey, Buffer.concat(parts, offset));
  return places;
}

/** A row says its bytes are kept but the blob store has none: lost, or a data dir this process does not share. */
class MissingBlobError extends Error {
  override name = 'MissingBlobError';
  constructor(key: string) {
    super(`${key} is not in the blob store (is HERALD_DATA_DIR shared by every Herald process?)`);
  }
}

async function rangeOrThrow(blobs: BlobStore, key: string, offset: number, length: number): Promise<Buffer> {
  const bytes = await blobs.get(key, { offset, length });
  if (bytes === null) throw new MissingBlobError(key);
  return bytes;
}

const asBuffer = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

/** The original as received: undefined when the team has no such message, null once retention removed it. */
export async function readOriginal(
  db: Kysely<Database>,
  blobs: BlobStore,
  teamId: number,
  id: string,
): Promise<Buffer | null | undefined> {
  const row = await originalOf(db, teamId, id);
  if (row === undefined) return undefined;
  if (row.raw_removed_at !== null) return null;
  if (row.raw !== null || row.blob_key === null) return asBuffer(row.raw ?? new Uint8Array());
  return rangeOrThrow(blobs, row.blob_key, row.raw_offset!, row.raw_size);
}

/** An attachment and its bytes: undefined when the team has no such attachment or retention removed it. */
export async function readAttachment(
  db: Kysely<Database>,
  blobs: BlobStore,
  teamId: number,
  messageId: string,
  position: number,
): Promise<{ filename: string; contentType: string; content: Buffer } | undefined> {
  const row = await attachmentOf(db, teamId, messageId, position);
  if (row === undefined || row.raw_removed_at !== null) return undefined;
  const content =
    row.content !== null || row.blob_key === null
      ? asBuffer(row.content ?? new Uint8Array())
      : await rangeOrThrow(blobs, row.blob_key, row.blob_offset!, row.size);
  return { filename: row.filename, contentType: row.content_type, content };
}
