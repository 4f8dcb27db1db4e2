// Inbound messages kept as failed (failed_at set): unreadable ones, and those no attempt could take.
// The sender was answered 250, so they stay, raw original included, for an operator to look at
// (`herald admin inbound failed`, GET /admin/v1/inbound/failed). The spool is Herald's own, not a
// team's: these queries have no tenant.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';

export interface FailedInboundMessage {
  id: string;
  receivedAt: Date;
  failedAt: Date;
  mailFrom: string;
  rcptTo: string[];
  remoteAddress: string;
  sizeBytes: number;
  attempts: number;
  error: string | null;
}

/** Newest failure first; `before` (an id) pages on. */
export async function listFailedInbound(
  db: Kysely<Database>,
  limit: number,
  before: string | null,
): Promise<FailedInboundMessage[]> {
  const rows = await db
    .selectFrom('inbound_messages')
    .select([
      'id',
      'received_at',
      'failed_at',
      'mail_from',
      'rcpt_to',
      'remote_address',
      'attempts',
      'last_error',
      sql<number>`octet_length(raw)`.as('size_bytes'),
    ])
    .where('failed_at', 'is not', null)
    .$if(before !== null, (q) => q.where('id', '<', BigInt(before!)))
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
  return rows.map((row) => ({
    id: String(row.id),
    receivedAt: row.received_at,
    failedAt: row.failed_at!,
    mailFrom: row.mail_from,
    rcptTo: row.rcpt_to,
    remoteAddress: row.remote_address,
    sizeBytes: Number(row.size_bytes),
    attempts: Number(row.attempts),
    error: row.last_error,
  }));
}

/** The original bytes of a failed message, as received; null when there is no such failed message. */
export async function failedInboundRaw(db: Kysely<Database>, id: string): Promise<Buffer | null> {
  const row = await db
    .selectFrom('inbound_messages')
    .select('raw')
    .where('id', '=', BigInt(id))
    .where('failed_at', 'is not', null)
    .executeTakeFirst();
  if (row === undefined) return null;
  const raw = row.raw as Uint8Array;
  return Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength);
}
