// Auth's statements. The key lookup is by its keyed hash alone: the key is what tells us the team.
// Changes that cached principals depend on (a key deleted, a member's role, a team's rate limit)
// are announced on one NOTIFY channel; every API process drops the team's cached entries at commit.
import { sql, type Kysely } from 'kysely';
import type { ApiKeyKind, Database, MemberRole } from '../../db/schema.ts';

export const AUTH_CHANNEL = 'herald_auth';

export interface KeyRow {
  id: string;
  key_hash: Buffer;
  team_id: number;
  kind: ApiKeyKind;
  domain_id: number | null;
  member_id: number | null;
  /** The maker's role today; null when the maker was never recorded or has left the team. */
  role: MemberRole | null;
  api_rate_limit: number;
  last_used_at: Date | null;
}

/** The key with this hash, its team's rate limit and its maker's role today. */
export function findKeyByHash(db: Kysely<Database>, keyHash: Buffer): Promise<KeyRow | undefined> {
  return db
    .selectFrom('api_keys as k')
    .innerJoin('teams as t', 't.id', 'k.team_id')
    .leftJoin('members as m', (join) => join.onRef('m.id', '=', 'k.member_id').onRef('m.team_id', '=', 'k.team_id'))
    .select([
      'k.id',
      'k.key_hash',
      'k.team_id',
      'k.kind',
      'k.domain_id',
      'k.member_id',
      'm.role',
      't.api_rate_limit',
      'k.last_used_at',
    ])
    .where('k.key_hash', '=', keyHash)
    .executeTakeFirst();
}

/** Call inside the transaction that makes the change, so the notice fires only if it commits. */
export async function announceAuthChange(db: Kysely<Database>, teamId: number): Promise<void> {
  await sql`SELECT pg_notify(${AUTH_CHANNEL}, ${String(teamId)})`.execute(db);
}

/** How stale a key's last_used_at may get before a lookup writes it again. */
export const KEY_USE_RESOLUTION_MS = 60_000;

/**
 * Records that the key was used at `now`, unless it already was within the last minute: the
 * condition makes concurrent processes write at most once a minute per key between them.
 */
export async function markKeyUsed(db: Kysely<Database>, teamId: number, keyId: string, now: Date): Promise<void> {
  const staleBefore = new Date(now.getTime() - KEY_USE_RESOLUTION_MS);
  await db
    .updateTable('api_keys')
    .set({ last_used_at: now })
    .where('team_id', '=', teamId)
    .where('id', '=', keyId)
    .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<=', staleBefore)]))
    .execute();
}
