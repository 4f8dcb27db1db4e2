// The dispatcher's statements: claim due calls under a per-webhook cap, write outcomes back with the
// webhook's failure bookkeeping, auto-disable, hand back expired leases and a stopping worker's
// calls, and the 30-day retention.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { purgeOldTailEvents } from './event-tail.ts';
import { noticeAutoDisabled } from './notices.ts';
import { MAX_ATTEMPTS } from './retry-schedule.ts';

const AUTO_DISABLE_AFTER_MS = 5 * 24 * 60 * 60 * 1000;

export interface ClaimedCall {
  id: string;
  team_id: number;
  webhook_id: string;
  type: string;
  payload: string;
  attempt: number;
  url: string;
  secret_sealed: string;
  lease_until: Date;
}

/**
 * Claims up to `limit` due calls of ACTIVE webhooks, oldest first, never giving one webhook more than
 * `perWebhook` calls in flight across all workers, so a slow endpoint holds at most that many slots
 * and other webhooks' calls still go out. Each claim uses up an attempt (a worker that dies mid-call
 * cannot retry a call forever).
 */
export async function claimDueCalls(
  db: Kysely<Database>,
  now: Date,
  leaseUntil: Date,
  limit: number,
  perWebhook: number,
  /** Calls of this worker whose attempt is over and whose outcome is being written: not busy. */
  finishing: readonly string[] = [],
): Promise<ClaimedCall[]> {
  const result = await sql<ClaimedCall>`
    -- Per webhook: its calls in flight (counted up to the cap: a LIMIT keeps this a short index
    -- scan however many finished calls the partial index still lists), then its oldest due calls.
    -- The ORDER BY makes it a plain index scan, which stops at the cap and marks the entries of
    -- finished calls dead for the next claim; a bitmap scan visited every one of them each time.
    WITH candidates AS (
      SELECT x.id, x.next_attempt_at
      FROM webhooks w
      CROSS JOIN LATERAL (
        SELECT count(*)::int AS n FROM (
          SELECT 1 FROM webhook_calls b
          WHERE b.webhook_id = w.id AND b.status = 'IN_PROGRESS' AND NOT (b.id = ANY(${finishing}::text[]))
          ORDER BY b.lease_until
          LIMIT ${perWebhook}::int
        ) held
      ) busy
      CROSS JOIN LATERAL (
        SELECT c.id, c.next_attempt_at FROM webhook_calls c
        WHERE c.webhook_id = w.id AND c.status = 'PENDING' AND c.next_attempt_at <= ${now}
        ORDER BY c.next_attempt_at
        LIMIT greatest(${perWebhook}::int - busy.n, 0)
      ) x
      WHERE w.status = 'ACTIVE'
      ORDER BY x.next_attempt_at
      LIMIT ${limit}::int
    ),
    locked AS (
      SELECT c.id FROM webhook_calls c
      WHERE c.id IN (SELECT id FROM candidates) AND c.status = 'PENDING'
      FOR UPDATE OF c SKIP LOCKED
    )
    UPDATE webhook_calls c
    SET status = 'IN_PROGRESS', attempt = c.attempt + 1, lease_until = ${leaseUntil}, updated_at = ${now}
    FROM locked, webhooks w
    WHERE c.id = locked.id AND w.id = c.webhook_id
    RETURNING c.id, c.team_id, c.webhook_id, c.type, c.payload, c.attempt,
              w.url, w.secret_sealed, c.lease_until`.execute(db);
  return result.rows;
}

export interface CallOutcome {
  id: string;
  lease: Date;
  status: 'DELIVERED' | 'PENDING' | 'FAILED';
  nextAttemptAt: Date | null;
  lastError: string | null;
  responseStatus: number | null;
  responseTimeMs: number;
  responseText: string | null;
  delivered: boolean;
  at: Date;
}

/**
 * Writes a batch of outcomes in one statement: each call (only while this worker still holds its
 * lease), then per webhook the failure count and the time of the first failure since the last
 * success. Returns how many calls were written. Webhooks whose attempts have now all failed for
 * 5 days are then disabled by disableFailingWebhooks.
 */
export async function writeOutcomes(
  db: Kysely<Database>,
  outcomes: readonly CallOutcome[],
  now: Date,
): Promise<number> {
  const input = JSON.stringify(
    outcomes.map((o) => ({
      id: o.id,
      lease: o.lease.toISOString(),
      status: o.status,
      next_attempt_at: o.nextAttemptAt?.toISOString() ?? null,
      last_error: o.lastError,
      response_status: o.responseStatus,
      response_time_ms: o.responseTimeMs,
      response_text: o.responseText,
      ok: o.delivered,
      at: o.at.toISOString(),
    })),
  );
  const disableBefore = new Date(now.getTime() - AUTO_DISABLE_AFTER_MS);
  // synchronous_commit off for this statement's own transaction: an outcome lost to a database
  // crash leaves its call IN_PROGRESS, and it is delivered again when the lease expires, which
  // webhooks allow anyway (at least once). One round trip, no explicit transaction.
  const result = await sql<{ written: number; over: string[] | null }>`
    WITH settings AS (SELECT set_config('synchronous_commit', 'off', true) AS applied),
    input AS (
      SELECT * FROM jsonb_to_recordset(${input}::jsonb) AS i(
        id text, lease timestamptz, status text, next_attempt_at timestamptz, last_error text,
        response_status int, response_time_ms int, response_text text, ok boolean, at timestamptz)
    ),
    written AS (
      UPDATE webhook_calls c
      SET status = i.status, next_attempt_at = i.next_attempt_at, lease_until = NULL, last_error = i.last_error,
          response_status = i.response_status, response_time_ms = i.response_time_ms, response_text = i.response_text,
          updated_at = i.at
      FROM input i
      WHERE c.id = i.id AND c.status = 'IN_PROGRESS' AND c.lease_until = i.lease
      RETURNING c.webhook_id, i.ok, i.at
    ),
    per_webhook AS (
      SELECT webhook_id, bool_or(ok) AS any_ok, count(*) FILTER (WHERE NOT ok)::int AS failures,
             max(at) FILTER (WHERE ok) AS last_ok, max(at) FILTER (WHERE NOT ok) AS last_fail,
             min(at) FILTER (WHERE NOT ok) AS first_fail
      FROM written GROUP BY webhook_id
    ),
    booked AS (
      UPDATE webhooks w
      SET consecutive_failures = CASE WHEN h.any_ok THEN 0 ELSE w.consecutive_failures + h.failures END,
          failing_since = CASE WHEN h.any_ok THEN NULL ELSE COALESCE(w.failing_since, h.first_fail) END,
          last_success_at = COALESCE(h.last_ok, w.last_success_at),
          last_failure_at = COALESCE(h.last_fail, w.last_failure_at)
      FROM per_webhook h
      WHERE w.id = h.webhook_id
      RETURNING w.id, w.status, w.failing_since
    )
    SELECT (SELECT count(*)::int FROM written) AS written,
           (SELECT array_agg(id) FROM booked WHERE failing_since <= ${disableBefore} OR status = 'AUTO_DISABLED') AS over,
           (SELECT applied FROM settings) AS applied`.execute(db);
  const row = result.rows[0];
  if (row?.over) await disableFailingWebhooks(db, row.over, now);
  return row?.written ?? 0;
}

/**
 * The auto-disable rule, in one transaction: each of these webhooks that is ACTIVE and has failed
 * every attempt for 5 days becomes AUTO_DISABLED, and the owner and admins are emailed; the pending
 * calls of those that are now disabled are DISCARDED (also retries written after it was disabled).
 * Should the process die before this runs, the webhook's next failed attempt runs it again.
 */
async function disableFailingWebhooks(db: Kysely<Database>, webhookIds: readonly string[], now: Date): Promise<void> {
  const disableBefore = new Date(now.getTime() - AUTO_DISABLE_AFTER_MS);
  await db.transaction().execute(async (tx) => {
    const disabled = await sql<{ id: string; team_id: number; url: string; failing_since: Date }>`
      UPDATE webhooks SET status = 'AUTO_DISABLED', updated_at = ${now}
      WHERE id = ANY(${webhookIds}::text[]) AND status = 'ACTIVE' AND failing_since <= ${disableBefore}
      RETURNING id, team_id, url, failing_since`.execute(tx);
    await sql`
      UPDATE webhook_calls SET status = 'DISCARDED', next_attempt_at = NULL, updated_at = ${now}
      WHERE webhook_id IN (SELECT id FROM webhooks WHERE id = ANY(${webhookIds}::text[]) AND status = 'AUTO_DISABLED')
        AND status = 'PENDING'`.execute(tx);
    for (const row of disabled.rows) {
      await noticeAutoDisabled(tx, row.team_id, { id: row.id, url: row.url, failingSince: row.failing_since }, now);
    }
  });
}

/**
 * Calls whose worker died (lease expired while IN_PROGRESS) go back to PENDING, due now; those that
 * used up every attempt are FAILED.
 */
export async function releaseExpiredCalls(db: Kysely<Database>, now: Date): Promise<number> {
  const result = await sql`
    UPDATE webhook_calls
    SET status = CASE WHEN attempt >= ${MAX_ATTEMPTS} THEN 'FAILED' ELSE 'PENDING' END,
        next_attempt_at = CASE WHEN attempt >= ${MAX_ATTEMPTS} THEN NULL ELSE ${now}::timestamptz END,
        last_error = 'the worker delivering it stopped', lease_until = NULL, updated_at = ${now}
    WHERE status = 'IN_PROGRESS' AND lease_until < ${now}`.execute(db);
  return Number(result.numAffectedRows ?? 0n);
}

/**
 * Calls this worker still holds at shutdown back to PENDING, due now, with the claim's attempt
 * returned; only while each lease is still the one we took (a late outcome then writes nothing).
 */
export async function handBackCalls(
  db: Kysely<Database>,
  calls: readonly Pick<ClaimedCall, 'id' | 'lease_until'>[],
  now: Date,
): Promise<number> {
  const result = await sql`
    UPDATE webhook_calls c SET status = 'PENDING', lease_until = NULL, attempt = greatest(c.attempt - 1, 0), next_attempt_at = ${now}
    FROM unnest(${calls.map((c) => c.id)}::text[], ${calls.map((c) => c.lease_until.toISOString())}::timestamptz[]) AS held(id, lease)
    WHERE c.id = held.id AND c.status = 'IN_PROGRESS' AND c.lease_until = held.lease`.execute(db);
  return Number(result.numAffectedRows ?? 0n);
}

const PURGE_BATCH = 5_000;

/**
 * Contract (Limits): calls are kept for 30 days. Team by team through the (team_id, created_at)
 * index, in batches so no statement runs long (calls of deleted webhooks went with them). The event
 * tail's copies go after a day in the same chore (event-tail.ts); only the calls are counted.
 */
export async function purgeOldCalls(db: Kysely<Database>, now: Date): Promise<number> {
  await purgeOldTailEvents(db, now);
  const before = new Date(now.getTime() - 30 * 24 * 60 * 60 * 1000);
  const teams = await sql<{ team_id: number }>`SELECT DISTINCT team_id FROM webhooks`.execute(db);
  let purged = 0;
  for (const { team_id: teamId } of teams.rows) {
    for (;;) {
      const result = await sql`
        DELETE FROM webhook_calls WHERE id IN (
          SELECT id FROM webhook_calls WHERE team_id = ${teamId} AND created_at < ${before} ORDER BY created_at LIMIT ${PURGE_BATCH}
        )`.execute(db);
      const deleted = Number(result.numAffectedRows ?? 0n);
      purged += deleted;
      if (deleted < PURGE_BATCH) break;
    }
  }
  return purged;
}
