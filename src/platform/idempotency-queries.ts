// The idempotency_keys statements (platform/idempotency.ts has the rules): claim a key, complete it
// with its response, free it, purge expired ones. Team id first.
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';
import { ApiError } from './errors.ts';

export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
/** An in-flight entry older than this belongs to a process that died; it may be taken over. */
const IN_FLIGHT_LOCK_MS = 5 * 60 * 1000;

export interface NewEntry {
  teamId: number;
  key: string;
  hash: string;
  now: Date;
}

/** A stored response, sent again for a repeated request. */
export interface Replay {
  status: number;
  body: string;
  contentType: string | null;
}

export interface Completion {
  teamId: number;
  key: string;
  status: number;
  body: string;
  contentType: string | null;
}

const freshEntry = (hash: string, now: Date) => ({
  request_hash: hash,
  state: 'in_progress' as const,
  response_status: null,
  response_body: null,
  content_type: null,
  locked_until: new Date(now.getTime() + IN_FLIGHT_LOCK_MS),
  created_at: now,
  expires_at: new Date(now.getTime() + IDEMPOTENCY_TTL_MS),
});

/**
 * Inserts new in-flight entries in one statement, its own transaction (never inside a caller's);
 * for each, whether it was inserted (false: the key exists, or the same key came twice in the batch).
 *
 * Committed without waiting for the disk (synchronous_commit off for this statement alone): an
 * entry lost to a database crash was a request still in flight, whose retry then runs anew; the
 * commit of its work, which waits for the disk, makes the entry written before it durable too.
 */
export async function insertEntries(db: Kysely<Database>, entries: NewEntry[]): Promise<boolean[]> {
  const rows = entries.map((e) => ({ team_id: e.teamId, key: e.key, ...freshEntry(e.hash, e.now) }));
  const result = await sql<{ team_id: number; key: string }>`
    WITH settings AS (SELECT set_config('synchronous_commit', 'off', true) AS applied)
    INSERT INTO idempotency_keys (team_id, key, request_hash, state, response_status, response_body, content_type, locked_until, created_at, expires_at)
    SELECT r.team_id, r.key, r.request_hash, r.state, r.response_status, r.response_body, r.content_type, r.locked_until, r.created_at, r.expires_at
    FROM jsonb_populate_recordset(NULL::idempotency_keys, ${JSON.stringify(rows)}::jsonb) AS r, settings
    ON CONFLICT (team_id, key) DO NOTHING
    RETURNING team_id, key`.execute(db);
  const inserted = new Set(result.rows.map((row) => `${row.team_id}:${row.key}`));
  const seen = new Set<string>();
  return entries.map((e) => {
    const id = `${e.teamId}:${e.key}`;
    const first = !seen.has(id);
    seen.add(id);
    return first && inserted.has(id);
  });
}

/**
 * Claims the key for this request (null), or answers the stored response to replay. The key used
 * for another request, or by a request still in flight: 409 NOT_UNIQUE (contract).
 */
export async function claimKey(
  db: Kysely<Database>,
  entry: NewEntry,
  insert: (entry: NewEntry) => Promise<boolean>,
): Promise<Replay | null> {
  const { teamId, key, hash, now } = entry;
  if (await insert(entry)) return null;
  // Take over an expired entry, or an in-flight one whose process died, atomically.
  const taken = await db
    .updateTable('idempotency_keys')
    .set(freshEntry(hash, now))
    .where('team_id', '=', teamId)
    .where('key', '=', key)
    .where((eb) =>
      eb.or([
        eb('expires_at', '<=', now),
        eb.and([eb('state', '=', 'in_progress'), eb('locked_until', '<=', now), eb('request_hash', '=', hash)]),
      ]),
    )
    .returning('key')
    .executeTakeFirst();
  if (taken) return null;

  const existing = await db
    .selectFrom('idempotency_keys')
    .selectAll()
    .where('team_id', '=', teamId)
    .where('key', '=', key)
    .executeTakeFirst();
  if (!existing) return claimKey(db, entry, insert); // finished and freed meanwhile
  if (existing.request_hash !== hash) {
    throw new ApiError(409, 'NOT_UNIQUE', 'Idempotency-Key was already used with a different request');
  }
  if (existing.state === 'in_progress') {
    throw new ApiError(409, 'NOT_UNIQUE', 'A request with this Idempotency-Key is still being processed; retry later');
  }
  return {
    status: existing.response_status ?? 200,
    body: existing.response_body ?? '',
    contentType: existing.content_type,
  };
}

/**
 * Stores the responses of finished requests in one statement (a key completed already, in the
 * transaction of the work it answers, is left as it is).
 */
export async function completeEntries(
  db: Kysely<Database> | Transaction<Database>,
  done: Completion[],
): Promise<void[]> {
  const rows = done.map((d) => ({
    team_id: d.teamId,
    key: d.key,
    response_status: d.status,
    response_body: d.body,
    content_type: d.contentType,
  }));
  await sql`
    UPDATE idempotency_keys AS k
    SET state = 'completed', response_status = v.response_status, response_body = v.response_body, content_type = v.content_type
    FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS v (team_id int, key text, response_status int, response_body text, content_type text)
    WHERE k.team_id = v.team_id AND k.key = v.key AND k.state = 'in_progress'`.execute(db);
  return done.map(() => undefined);
}

/** Frees a claimed key whose request failed, so that a retry runs. */
export async function releaseKey(db: Kysely<Database>, teamId: number, key: string): Promise<void> {
  await db
    .deleteFrom('idempotency_keys')
    .where('team_id', '=', teamId)
    .where('key', '=', key)
    .where('state', '=', 'in_progress')
    .execute();
}

/** Chore: drop entries past their 24 hours. */
export async function purgeExpiredIdempotencyKeys(db: Kysely<Database>, now: Date): Promise<number> {
  const result = await db.deleteFrom('idempotency_keys').where('expires_at', '<=', now).executeTakeFirst();
  return Number(result.numDeletedRows);
}
