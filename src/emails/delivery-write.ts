// Writing what one delivery attempt decided: the email's status and its events in one transaction,
// only while this worker still holds the row's lease and the email is still waiting to be sent. The
// second condition is where the status precedence table (status-precedence.ts) lets a delivery
// attempt decide: nothing here moves an email that already left the queue.
import { sql, type Kysely } from 'kysely';
import type { Database, EmailStatus } from '../db/schema.ts';
import { emailEventsWithCalls } from '../webhooks/index.ts';

export interface AttemptRecord {
  /** The new status; null keeps it (a retry). */
  status: EmailStatus | null;
  messageId: string | null;
  events: { status: EmailStatus; data: unknown }[];
}

/**
 * False when the lease passed to another worker or the email left the queue meanwhile. One
 * statement (status and events together), so one round trip and its own transaction.
 */
export async function recordAttempt(
  db: Kysely<Database>,
  email: { team_id: number; id: string },
  leaseUntil: Date,
  now: Date,
  record: AttemptRecord,
): Promise<boolean> {
  const events = record.events.map((e) => ({ status: e.status, data: e.data ?? null }));
  const result = await sql<{ updated: number }>`
    WITH updated AS (
      UPDATE emails
      SET status = COALESCE(${record.status}::text, status), message_id = COALESCE(${record.messageId}::text, message_id), updated_at = ${now}
      WHERE team_id = ${email.team_id} AND id = ${email.id} AND lease_until = ${leaseUntil} AND status IN ('QUEUED', 'SCHEDULED')
      RETURNING id
    ),
    ${emailEventsWithCalls(sql`
      INSERT INTO email_events (team_id, email_id, status, data, created_at)
      SELECT ${email.team_id}::int, ${email.id}::text, e.status, e.data, ${now}::timestamptz
      FROM ROWS FROM (jsonb_to_recordset(${JSON.stringify(events)}::jsonb) AS (status text, data jsonb)) WITH ORDINALITY AS e (status, data, ordinality)
      WHERE EXISTS (SELECT 1 FROM updated)
      ORDER BY e.ordinality`)}
    SELECT count(*)::int AS updated FROM updated`.execute(db);
  return Number(result.rows[0]?.updated ?? 0) > 0;
}

/** The queue's last word on rows our own code could not handle: FAILED, with the reason, lease released. */
export async function failDeliveries(
  db: Kysely<Database>,
  items: { teamId: number; id: string; error: string }[],
  leaseUntil: Date,
  now: Date,
): Promise<void> {
  for (const item of items) {
    await db.transaction().execute(async (tx) => {
      const updated = await tx
        .updateTable('emails')
        .set({ status: 'FAILED', lease_until: null, last_error: item.error, updated_at: now })
        .where('team_id', '=', item.teamId)
        .where('id', '=', item.id)
        .where('lease_until', '=', leaseUntil)
        .where('status', 'in', ['QUEUED', 'SCHEDULED'])
        .executeTakeFirst();
      if (updated.numUpdatedRows === 0n) return;
      await sql`WITH ${emailEventsWithCalls(sql`
        INSERT INTO email_events (team_id, email_id, status, data, created_at)
        VALUES (${item.teamId}::int, ${item.id}::text, 'FAILED', ${JSON.stringify({ reason: item.error })}::jsonb, ${now}::timestamptz)`)}
        SELECT 1`.execute(tx);
    });
  }
}
