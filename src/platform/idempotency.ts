// Idempotency-Key for any POST route that opts in with `config: { idempotent: true }`.
// Entries live in the database, so they survive restarts and are shared by every API process.
// Same key + same request: the stored response is replayed and nothing runs again. Same key +
// other request: 409 NOT_UNIQUE. Same key while the first is in flight: 409 NOT_UNIQUE too.
// Only successful (2xx) responses are kept; a failed request frees its key for a retry.
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { Clock } from './clock.ts';
import { Coalescer } from './coalescer.ts';
import { ApiError } from './errors.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** true: claimed before the handler, completed after it. 'inline': see InlineIdempotency. */
    idempotent?: boolean | 'inline';
  }
  interface FastifyRequest {
    idempotency?: { teamId: number; key: string };
    inlineIdempotency?: InlineIdempotency;
  }
}

/** The content type of every JSON response, stored with an entry written inline. */
const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

interface Replay {
  status: number;
  body: string;
  contentType: string | null;
}

/**
 * A route with `idempotent: 'inline'` gets the key here instead of a claimed entry, so that it can
 * write the entry, completed with its response, in the same statement as its own rows (one write
 * instead of three, and no window where the work is done but the key still says in progress). When
 * it cannot (the key exists already, or its one-statement path declined), it calls `claim()` before doing
 * anything else, and the key works exactly as on other routes: `claim()` answers a stored response to
 * replay (the handler sends it with `sendReplay`), throws 409 NOT_UNIQUE, or claims the key, which
 * then completes when the response is sent.
 */
interface InlineIdempotency {
  /** The completed entry for a 200 JSON response with this body. */
  completed(body: string): {
    key: string;
    requestHash: string;
    status: number;
    body: string;
    contentType: string;
    expiresAt: Date;
  };
  claim(): Promise<Replay | null>;
}

export function sendReplay(reply: FastifyReply, replay: Replay): FastifyReply {
  reply.header('idempotent-replayed', 'true');
  if (replay.contentType) reply.header('content-type', replay.contentType);
  return reply.code(replay.status).send(replay.body);
}

export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
/** An in-flight entry older than this belongs to a process that died; it may be taken over. */
const IN_FLIGHT_LOCK_MS = 5 * 60 * 1000;
const IDEMPOTENCY_KEY_MAX = 256;

function requestHash(request: FastifyRequest): string {
  const path = request.routeOptions.url ?? request.url;
  return createHash('sha256')
    .update(`${request.method} ${path} ${JSON.stringify(request.params ?? {})}\n`)
    .update(JSON.stringify(request.body ?? null))
    .digest('base64url');
}

function readKey(request: FastifyRequest): string | null {
  const raw = request.headers['idempotency-key'];
  if (raw === undefined) return null;
  const key = Array.isArray(raw) ? (raw[0] ?? '') : raw;
  if (key.length < 1 || key.length > IDEMPOTENCY_KEY_MAX) {
    throw new ApiError(400, 'BAD_REQUEST', `Idempotency-Key header must be 1 to ${IDEMPOTENCY_KEY_MAX} characters`);
  }
  return key;
}

type Claim = { kind: 'claimed' } | { kind: 'replay'; status: number; body: string; contentType: string | null };

interface NewEntry {
  teamId: number;
  key: string;
  hash: string;
  now: Date;
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
 * Inserts new in-flight entries in one statement; for each, whether it was inserted (false: the
 * key exists, or the same key came twice in the batch).
 */
async function insertEntries(db: Kysely<Database>, entries: NewEntry[]): Promise<boolean[]> {
  const rows = entries.map((e) => ({ team_id: e.teamId, key: e.key, ...freshEntry(e.hash, e.now) }));
  const result = await sql<{ team_id: number; key: string }>`
    INSERT INTO idempotency_keys (team_id, key, request_hash, state, response_status, response_body, content_type, locked_until, created_at, expires_at)
    SELECT r.team_id, r.key, r.request_hash, r.state, r.response_status, r.response_body, r.content_type, r.locked_until, r.created_at, r.expires_at
    FROM jsonb_populate_recordset(NULL::idempotency_keys, ${JSON.stringify(rows)}::jsonb) AS r
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

async function claimKey(
  db: Kysely<Database>,
  entry: NewEntry,
  insert: (entry: NewEntry) => Promise<boolean>,
): Promise<Claim> {
  const { teamId, key, hash, now } = entry;
  if (await insert(entry)) return { kind: 'claimed' };
  const fresh = freshEntry(hash, now);

  // Take over an expired entry, or an in-flight one whose process died, atomically.
  const taken = await db
    .updateTable('idempotency_keys')
    .set(fresh)
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
  if (taken) return { kind: 'claimed' };

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
    kind: 'replay',
    status: existing.response_status ?? 200,
    body: existing.response_body ?? '',
    contentType: existing.content_type,
  };
}

interface Completion {
  teamId: number;
  key: string;
  status: number;
  body: string;
  contentType: string | null;
}

/** Stores the responses of finished requests in one statement. */
async function completeEntries(db: Kysely<Database>, done: Completion[]): Promise<void[]> {
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

interface Writers {
  db: Kysely<Database>;
  insert: (entry: NewEntry) => Promise<boolean>;
  complete: (done: Completion) => Promise<void>;
}

async function settle(writers: Writers, request: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<void> {
  const entry = request.idempotency;
  if (!entry) return;
  request.idempotency = undefined;
  if (reply.statusCode >= 200 && reply.statusCode < 300 && (typeof payload === 'string' || payload === undefined)) {
    const contentType = reply.getHeader('content-type');
    await writers.complete({
      teamId: entry.teamId,
      key: entry.key,
      status: reply.statusCode,
      body: (payload as string | undefined) ?? '',
      contentType: typeof contentType === 'string' ? contentType : null,
    });
  } else {
    await writers.db
      .deleteFrom('idempotency_keys')
      .where('team_id', '=', entry.teamId)
      .where('key', '=', entry.key)
      .where('state', '=', 'in_progress')
      .execute();
  }
}

export function registerIdempotency(app: FastifyInstance, deps: { db: Kysely<Database>; clock: Clock }): void {
  // Concurrent requests share the insert of their keys and the write of their responses.
  const inserts = new Coalescer<NewEntry, boolean>((entries) => insertEntries(deps.db, entries), {
    maxBatch: 64,
    concurrency: 2,
  });
  const completions = new Coalescer<Completion, void>((done) => completeEntries(deps.db, done), {
    maxBatch: 64,
    concurrency: 2,
  });
  const writers: Writers = {
    db: deps.db,
    insert: (entry) => inserts.submit(entry),
    complete: (done) => completions.submit(done),
  };
  const claim = async (request: FastifyRequest, reply: FastifyReply) => {
    if (!request.principal) return;
    const key = readKey(request);
    if (key === null) return;
    const teamId = request.principal.teamId;
    const entry = { teamId, key, hash: requestHash(request), now: deps.clock.now() };
    const claimEntry = async (): Promise<Replay | null> => {
      const result = await claimKey(deps.db, entry, writers.insert);
      if (result.kind === 'replay') return result;
      request.idempotency = { teamId, key };
      return null;
    };
    if (request.routeOptions.config.idempotent === 'inline') {
      request.inlineIdempotency = {
        completed: (body) => ({
          key,
          requestHash: entry.hash,
          status: 200,
          body,
          contentType: JSON_CONTENT_TYPE,
          expiresAt: new Date(entry.now.getTime() + IDEMPOTENCY_TTL_MS),
        }),
        claim: claimEntry,
      };
      return;
    }
    const replay = await claimEntry();
    if (replay) return sendReplay(reply, replay);
  };
  const store = async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    await settle(writers, request, reply, payload);
    return payload;
  };
  // A response that never got sent (client gone, serialisation failure) frees the key.
  const release = async (request: FastifyRequest, reply: FastifyReply) => {
    if (request.idempotency) await settle(writers, request, reply, null);
  };
  // Hooks only on the routes that opt in, so other routes pay nothing for the feature.
  app.addHook('onRoute', (route) => {
    if (!route.config?.idempotent) return;
    route.preHandler = [...asArray(route.preHandler), claim];
    route.onSend = [...asArray(route.onSend), store];
    route.onResponse = [...asArray(route.onResponse), release];
  });
}

function asArray<T>(value: T | T[] | undefined): T[] {
  return value === undefined ? [] : Array.isArray(value) ? value : [value];
}

/** Chore: drop entries past their 24 hours. */
/**
 * Idempotency for work done inside a caller's transaction (emails' queueEmails): the response stored
 * for this key and request, or null when the team has no live entry under it. The key used for another
 * request, or by a request still in flight: 409 NOT_UNIQUE, as on the HTTP routes.
 */
export async function storedResponseOf(
  db: Kysely<Database>,
  teamId: number,
  key: string,
  requestHash: string,
  now: Date,
): Promise<string | null> {
  const existing = await db
    .selectFrom('idempotency_keys')
    .select(['request_hash', 'state', 'response_body'])
    .where('team_id', '=', teamId)
    .where('key', '=', key)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  if (!existing) return null;
  if (existing.request_hash !== requestHash)
    throw new ApiError(409, 'NOT_UNIQUE', 'Idempotency-Key was already used with a different request');
  if (existing.state !== 'completed')
    throw new ApiError(409, 'NOT_UNIQUE', 'A request with this Idempotency-Key is still being processed; retry later');
  return existing.response_body ?? '';
}

/**
 * Records the key completed with `body` in the caller's transaction (an expired entry is taken
 * over). False when a live entry exists: a concurrent transaction that wrote the key is waited for,
 * and its entry then wins.
 */
export async function insertCompletedKey(
  db: Kysely<Database>,
  teamId: number,
  entry: { key: string; requestHash: string; body: string },
  now: Date,
): Promise<boolean> {
  const row = {
    team_id: teamId,
    key: entry.key,
    request_hash: entry.requestHash,
    state: 'completed',
    response_status: 200,
    response_body: entry.body,
    content_type: JSON_CONTENT_TYPE,
    locked_until: now,
    created_at: now,
    expires_at: new Date(now.getTime() + IDEMPOTENCY_TTL_MS),
  } as const;
  const inserted = await db
    .insertInto('idempotency_keys')
    .values(row)
    .onConflict((oc) => oc.columns(['team_id', 'key']).doUpdateSet(row).where('idempotency_keys.expires_at', '<=', now))
    .returning('key')
    .executeTakeFirst();
  return inserted !== undefined;
}

export async function purgeExpiredIdempotencyKeys(db: Kysely<Database>, now: Date): Promise<number> {
  const result = await db.deleteFrom('idempotency_keys').where('expires_at', '<=', now).executeTakeFirst();
  return Number(result.numDeletedRows);
}
