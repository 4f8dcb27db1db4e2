// The spool's statements (inbound_messages): the listener's INSERT before its 250, and what a taker
// does with the rows it recorded. The spool is Herald's own, not a team's: these have no tenant.
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { InboundMessage } from './receive-message.ts';

/** Who holds the rows: the listener that spooled them (no lease on them), or the queue under its lease. */
export type SpoolTaker = { kind: 'listener' } | { kind: 'queue'; leaseUntil: Date };

const heldBy = (taker: SpoolTaker) =>
  taker.kind === 'queue' ? sql`lease_until = ${taker.leaseUntil}::timestamptz` : sql`lease_until IS NULL`;

/**
 * One row per message, the raw bytes as a binary parameter (no base64 or JSON to encode and decode):
 * a statement text per batch size, each prepared once per connection. Returns the ids in the
 * messages' order.
 */
export async function insertSpooledMessages(
  db: Kysely<Database>,
  messages: InboundMessage[],
  now: Date,
  due: Date,
): Promise<string[]> {
  const values = messages.map(
    (m) => sql`(${now}, ${m.mailFrom}, ${m.rcptTo}::text[], ${m.remoteAddress}, ${m.secure}, ${m.raw}::bytea, ${due})`,
  );
  const { rows: ids } = await sql<{ id: string }>`
    INSERT INTO inbound_messages (received_at, mail_from, rcpt_to, remote_address, secure, raw, due_at)
    VALUES ${sql.join(values)}
    RETURNING id::text`.execute(db);
  // One statement's ids are drawn in its insertion order, which is the messages' order. (Decimal
  // text without leading zeros: the shorter is the smaller.)
  return ids.map((row) => row.id).sort((a, b) => a.length - b.length || (a < b ? -1 : a > b ? 1 : 0));
}

/** Marks the taker's rows failed with their errors (kept for an operator, never retried). */
export async function markSpooledFailed(
  db: Kysely<Database>,
  items: { id: string; error: string | null }[],
  taker: SpoolTaker,
  now: Date,
): Promise<void> {
  await sql`
    UPDATE inbound_messages SET failed_at = ${now}, last_error = job.error, lease_until = NULL
    FROM unnest(${items.map((item) => item.id)}::bigint[], ${items.map((item) => item.error)}::text[]) AS job(id, error)
    WHERE inbound_messages.id = job.id AND ${heldBy(taker)}`.execute(db);
}

/**
 * Deletes the taker's rows and turns synchronous_commit off for the enclosing transaction alone (why:
 * record-spooled.ts). Returns how many were still the taker's.
 */
export async function deleteSpooledRows(tx: Transaction<Database>, ids: string[], taker: SpoolTaker): Promise<number> {
  const result = await sql<{ deleted: string }>`
    WITH deleted AS (
      DELETE FROM inbound_messages WHERE id = ANY(${ids}::bigint[]) AND ${heldBy(taker)}
      RETURNING 1)
    SELECT count(*) AS deleted, set_config('synchronous_commit', 'off', true) FROM deleted`.execute(tx);
  return Number(result.rows[0]!.deleted);
}
