// Idempotency-Key for any POST route that opts in with `config: { idempotent: true }`.
// Entries live in the database, so they survive restarts and are shared by every API process.
// Same key + same request: the stored response is replayed and nothing runs again. Same key +
// other request: 409 NOT_UNIQUE. Same key while the first is in flight: 409 NOT_UNIQUE too.
// Only successful (2xx) responses are kept; a failed request frees its key for a retry.
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { Clock } from './clock.ts';
import { ApiError } from './errors.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    idempotent?: boolean;
  }
  interface FastifyRequest {
    idempotency?: { teamId: number; key: string };
  }
}

export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
/** An in-flight entry older than this belongs to a process that died; it may be taken over. */
const IN_FLIGHT_LOCK_MS = 5 * 60 * 1000;
export const IDEMPOTENCY_KEY_MAX = 256;

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
  const key = Array.isArray(raw) ? raw[0] ?? '' : raw;
  if (key.length < 1 || key.length > IDEMPOTENCY_KEY_MAX) {
    throw new ApiError(400, 'BAD_REQUEST', `Idempotency-Key header must be 1 to ${IDEMPOTENCY_KEY_MAX} characters`);
  }
  return key;
}

type Claim = { kind: 'claimed' } | { kind: 'replay'; status: number; body: string; contentType: string | null };

async function claimKey(db: Kysely<Database>, teamId: number, key: string, hash: string, now: Date): Promise<Claim> {
  const fresh = {
    request_hash: hash,
    state: 'in_progress' as const,
    response_status: null,
    response_body: null,
    content_type: null,
    locked_until: new Date(now.getTime() + IN_FLIGHT_LOCK_MS),
    created_at: now,
    expires_at: new Date(now.getTime() + IDEMPOTENCY_TTL_MS),
  };
  const inserted = await db
    .insertInto('idempotency_keys')
    .values({ team_id: teamId, key, ...fresh })
    .onConflict((oc) => oc.columns(['team_id', 'key']).doNothing())
    .returning('key')
    .executeTakeFirst();
  if (inserted) return { kind: 'claimed' };

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
  if (!existing) return claimKey(db, teamId, key, hash, now); // finished and freed meanwhile
  if (existing.request_hash !== hash) {
    throw new ApiError(409, 'NOT_UNIQUE', 'Idempotency-Key was already used with a different request');
  }
  if (existing.state === 'in_progress') {
    throw new ApiError(409, 'NOT_UNIQUE', 'A request with this Idempotency-Key is still being processed; retry later');
  }
  return { kind: 'replay', status: existing.response_status ?? 200, body: existing.response_body ?? '', contentType: existing.content_type };
}

async function settle(db: Kysely<Database>, request: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<void> {
  const entry = request.idempotency;
  if (!entry) return;
  request.idempotency = undefined;
  const where = db.updateTable('idempotency_keys').where('team_id', '=', entry.teamId).where('key', '=', entry.key);
  if (reply.statusCode >= 200 && reply.statusCode < 300 && (typeof payload === 'string' || payload === undefined)) {
    const contentType = reply.getHeader('content-type');
    await where
      .set({
        state: 'completed',
        response_status: reply.statusCode,
        response_body: (payload as string | undefined) ?? '',
        content_type: typeof contentType === 'string' ? contentType : null,
      })
      .where('state', '=', 'in_progress')
      .execute();
  } else {
    await db
      .deleteFrom('idempotency_keys')
      .where('team_id', '=', entry.teamId)
      .where('key', '=', entry.key)
      .where('state', '=', 'in_progress')
      .execute();
  }
}

export function registerIdempotency(app: FastifyInstance, deps: { db: Kysely<Database>; clock: Clock }): void {
  const claim = async (request: FastifyRequest, reply: FastifyReply) => {
    if (!request.principal) return;
    const key = readKey(request);
    if (key === null) return;
    const teamId = request.principal.teamId;
    const result = await claimKey(deps.db, teamId, key, requestHash(request), deps.clock.now());
    if (result.kind === 'replay') {
      reply.header('idempotent-replayed', 'true');
      if (result.contentType) reply.header('content-type', result.contentType);
      return reply.code(result.status).send(result.body);
    }
    request.idempotency = { teamId, key };
  };
  const store = async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    await settle(deps.db, request, reply, payload);
    return payload;
  };
  // A response that never got sent (client gone, serialisation failure) frees the key.
  const release = async (request: FastifyRequest, reply: FastifyReply) => {
    if (request.idempotency) await settle(deps.db, request, reply, null);
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
export async function purgeExpiredIdempotencyKeys(db: Kysely<Database>, now: Date): Promise<number> {
  const result = await db.deleteFrom('idempotency_keys').where('expires_at', '<=', now).executeTakeFirst();
  return Number(result.numDeletedRows);
}
