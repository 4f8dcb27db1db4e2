// Idempotency-Key for any POST route that opts in with `config: { idempotent: true }`, one mode for
// all: the key is claimed before the handler runs and completed with the response after it.
// Entries live in the database, so they survive restarts and are shared by every API process.
// Same key + same request: the stored response is replayed and nothing runs again. Same key +
// other request: 409 NOT_UNIQUE. Same key while the first is in flight: 409 NOT_UNIQUE too.
// Only successful (2xx) responses are kept; a failed request frees its key for a retry.
// A route whose work commits in a transaction of its own may complete the key inside that
// transaction (completedKey, completeKeysIn), so that a crash after the commit cannot leave the key in flight
// (a retry five minutes later would take it over and do the work twice).
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { Clock } from './clock.ts';
import { Coalescer } from './coalescer.ts';
import { ApiError } from './errors.ts';
import {
  claimKey,
  completeEntries,
  releaseKey,
  insertEntries,
  type Completion,
  type NewEntry,
  type Replay,
} from './idempotency-queries.ts';

export { IDEMPOTENCY_TTL_MS, purgeExpiredIdempotencyKeys } from './idempotency-queries.ts';
export type { NewEntry, Replay } from './idempotency-queries.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Claimed before the handler, completed after it (or by the handler in its transaction). */
    idempotent?: boolean;
  }
  interface FastifyRequest {
    idempotency?: ClaimedKey;
  }
}

/** The key a request claimed. */
export interface ClaimedKey {
  teamId: number;
  key: string;
  /** Set by the route once its committed transaction holds the response (completeKeysIn). */
  stored?: boolean;
}

/** The content type of every JSON response, stored with an entry completed in a transaction. */
const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';
const IDEMPOTENCY_KEY_MAX = 256;

function sendReplay(reply: FastifyReply, replay: Replay): FastifyReply {
  reply.header('idempotent-replayed', 'true');
  if (replay.contentType) reply.header('content-type', replay.contentType);
  return reply.code(replay.status).send(replay.body);
}

/** What a request is recognised by: its method and route, its parameters and its body. */
export function idempotencyHash(method: string, route: string, params: unknown, body: unknown): string {
  return createHash('sha256')
    .update(`${method} ${route} ${JSON.stringify(params ?? {})}\n`)
    .update(JSON.stringify(body ?? null))
    .digest('base64url');
}

function requestHash(request: FastifyRequest): string {
  return idempotencyHash(request.method, request.routeOptions.url ?? request.url, request.params, request.body);
}

/** The contract's rule for a key (1 to 256 characters), wherever it was read from; 400 otherwise. */
export function checkIdempotencyKey(key: string): string {
  if (key.length < 1 || key.length > IDEMPOTENCY_KEY_MAX) {
    throw new ApiError(400, 'BAD_REQUEST', `Idempotency-Key header must be 1 to ${IDEMPOTENCY_KEY_MAX} characters`);
  }
  return key;
}

function readKey(request: FastifyRequest): string | null {
  const raw = request.headers['idempotency-key'];
  if (raw === undefined) return null;
  return checkIdempotencyKey(Array.isArray(raw) ? (raw[0] ?? '') : raw);
}

/**
 * The same claim for a request that does not come through an HTTP route (SMTP submission): the key
 * claimed (complete it with completedKey in the work's transaction, or free it with
 * releaseIdempotencyKey if the work fails), or the stored response to answer again. Another request
 * under the key, or the key in flight: 409 NOT_UNIQUE, as on the routes.
 */
export async function claimIdempotencyKey(
  db: Kysely<Database>,
  entry: NewEntry,
): Promise<{ claimed: ClaimedKey } | { replay: Replay }> {
  const replay = await claimKey(db, entry, async (e) => (await insertEntries(db, [e]))[0]!);
  return replay ? { replay } : { claimed: { teamId: entry.teamId, key: entry.key } };
}

/** Frees a claimed key whose work failed or was refused, so that a retry runs. */
export async function releaseIdempotencyKey(db: Kysely<Database>, claimed: ClaimedKey): Promise<void> {
  await releaseKey(db, claimed.teamId, claimed.key);
}

/**
 * The claimed key completed with a 200 JSON response `body`, to be written inside the transaction
 * of the work it answers (completeKeysIn); once that has committed, the route sets
 * `claimed.stored` and the response is not written again. If it rolls back, the key stays claimed
 * and the failed response frees it.
 */
export function completedKey(claimed: ClaimedKey, body: string): Completion {
  return { teamId: claimed.teamId, key: claimed.key, status: 200, body, contentType: JSON_CONTENT_TYPE };
}

/** Writes completedKey rows, in one statement, in the transaction of the work they answer. */
export async function completeKeysIn(tx: Transaction<Database>, completions: Completion[]): Promise<void> {
  await completeEntries(tx, completions);
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
  if (entry.stored) return;
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
    await releaseKey(writers.db, entry.teamId, entry.key);
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
    const replay = await claimKey(
      deps.db,
      { teamId, key, hash: requestHash(request), now: deps.clock.now() },
      writers.insert,
    );
    if (replay) return sendReplay(reply, replay);
    request.idempotency = { teamId, key };
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
