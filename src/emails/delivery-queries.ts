// Every SQL statement of the delivery worker (delivery.ts, delivery-batch.ts, delivery-write.ts).
// The batch reads go by the claimed emails' ids or (team, address) pairs, so they span teams and say
// so; the writes are one email's, team id first, and hold only while the worker's lease does.
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database, EmailStatus } from '../db/schema.ts';
import { recordedEventsCtes } from './event-queries.ts';
import type { EmailEventCall } from './views.ts';

/**
 * The lanes' claim conditions (defineQueue readyWhere): transactional mail and bulk mail (campaigns'
 * and journeys') are claimed apart, each through its own due index (0020_bulk_lane.sql), so a
 * campaign's backlog of due emails never stands before a password reset.
 */
export const DELIVERABLE = sql`status IN ('QUEUED', 'SCHEDULED') AND NOT bulk`;
export const DELIVERABLE_BULK_MAIL = sql`status IN ('QUEUED', 'SCHEDULED') AND bulk`;
/** Finaliser SET fragments: a delivered email forgets its last error, a retried one keeps the job's. */
export const CLEAR_LAST_ERROR = sql`last_error = NULL`;
export const KEEP_JOB_ERROR = sql`last_error = job.job_error`;

/** The attachments of a batch's emails, in email then position order. Over many teams (by email id). */
export async function readAttachmentsOf(db: Kysely<Database>, emailIds: string[]) {
  return db
    .selectFrom('email_attachments')
    .select(['email_id', 'filename', 'content', 'content_id'])
    .where('email_id', 'in', emailIds)
    .orderBy('email_id')
    .orderBy('position')
    .execute();
}

/** What earlier attempts of retried emails settled (their delay, bounce and suppression events), oldest first. Over many teams (by email id). */
export async function readSettledEventsOf(db: Kysely<Database>, emailIds: string[]) {
  return db
    .selectFrom('email_events')
    .select(['email_id', 'status', 'data'])
    .where('email_id', 'in', emailIds)
    .where('status', 'in', ['DELIVERY_DELAYED', 'BOUNCED', 'SUPPRESSED'])
    .orderBy('id', 'asc')
    .execute();
}

/** The (team, address) pairs found in a per-team address list. Over many teams (each pair carries its team). */
export async function findListedAddresses(
  db: Kysely<Database>,
  table: 'suppressions' | 'unsubscribes',
  pairs: { teamId: number; address: string }[],
) {
  if (pairs.length === 0) return [];
  return db
    .selectFrom(table)
    .select(['team_id', 'email'])
    .where((eb) => eb.or(pairs.map((p) => eb.and([eb('team_id', '=', p.teamId), eb('email', '=', p.address)]))))
    .execute();
}

/** The emails replies answer, with their team for the caller to match. Over many teams (by email id). */
export async function readAnsweredEmails(db: Kysely<Database>, ids: string[]) {
  return db.selectFrom('emails').select(['id', 'team_id', 'message_id']).where('id', 'in', ids).execute();
}

/** One event of an attempt, with its webhook call's type and body (views.ts emailEventCall). */
export type AttemptEvent = { status: EmailStatus; data: unknown } & EmailEventCall;

/**
 * One attempt's outcome: the status (null keeps it) and message id, and its events with their
 * webhook calls inserted, only while `leaseUntil` is still the row's and the email is
 * QUEUED/SCHEDULED. One statement, so one round trip and its own transaction. Answers how many
 * emails it updated (0 or 1).
 */
export async function writeAttemptOutcome(
  db: Kysely<Database>,
  teamId: number,
  emailId: string,
  leaseUntil: Date,
  now: Date,
  outcome: {
    status: EmailStatus | null;
    messageId: string | null;
    events: AttemptEvent[];
    /** The email waits for a retry: it reads DELIVERY_DELAYED; null keeps what it was. */
    delayed: boolean | null;
    /** The claim's attempt is given back (a wait for a backed-off destination). */
    uncounted: boolean;
  },
): Promise<number> {
  const result = await sql<{ updated: number }>`
    WITH updated AS (
      UPDATE emails
      SET status = COALESCE(${outcome.status}::text, status), message_id = COALESCE(${outcome.messageId}::text, message_id), updated_at = ${now},
          delivery_delayed = COALESCE(${outcome.delayed}::boolean, delivery_delayed), attempts = attempts - ${outcome.uncounted ? 1 : 0}::int
      WHERE team_id = ${teamId} AND id = ${emailId} AND lease_until = ${leaseUntil} AND status IN ('QUEUED', 'SCHEDULED')
      RETURNING id
    ),
    recorded AS (
      SELECT e.n, ${teamId}::int AS team_id, ${emailId}::text AS email_id, e.status, e.data, NULL::text AS open_key,
             ${now}::timestamptz AS at, e.domain_id, e.type, e.payload
      FROM ROWS FROM (jsonb_to_recordset(${JSON.stringify(outcome.events)}::jsonb)
        AS (status text, data jsonb, domain_id int, type text, payload text)) WITH ORDINALITY AS e (status, data, domain_id, type, payload, n)
      WHERE EXISTS (SELECT 1 FROM updated)
    ),
    ${recordedEventsCtes('recorded')}
    SELECT count(*)::int AS updated FROM updated`.execute(db);
  return Number(result.rows[0]?.updated ?? 0);
}

/** FAILED with the reason and the lease released, only while the lease is ours and the email queued; false otherwise. */
export async function failLeasedEmail(
  tx: Transaction<Database>,
  teamId: number,
  id: string,
  leaseUntil: Date,
  error: string,
  now: Date,
): Promise<boolean> {
  const updated = await tx
    .updateTable('emails')
    .set({ status: 'FAILED', lease_until: null, last_error: error, updated_at: now })
    .where('team_id', '=', teamId)
    .where('id', '=', id)
    .where('lease_until', '=', leaseUntil)
    .where('status', 'in', ['QUEUED', 'SCHEDULED'])
    .executeTakeFirst();
  return updated.numUpdatedRows !== 0n;
}
