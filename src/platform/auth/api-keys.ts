// API keys: shown once, stored only as a keyed hash (HMAC-SHA256 with a key derived from
// HERALD_SECRET), looked up by that hash and compared in constant time.
import type { Kysely } from 'kysely';
import type { ApiKeyKind, Database, TeamPlan } from '../../db/schema.ts';
import { announceAuthChange } from './auth-events.ts';
import { randomToken, safeEqual, type Secrets } from '../crypto.ts';
import { effectivePlanSql } from '../effective-plan.ts';
import { newId } from '../ids.ts';

export const API_KEY_KINDS = [
  'full',
  'readonly',
  'sending',
  'sandbox',
  'live_ai',
] as const satisfies readonly ApiKeyKind[];

const KEY_PATTERN = /^hk_[A-Za-z0-9_-]{43}$/;

export function isWellFormedKey(key: string): boolean {
  return KEY_PATTERN.test(key);
}

export function hashApiKey(secrets: Secrets, key: string): Buffer {
  return secrets.hmac('api-key', key);
}

function keysMatch(stored: Buffer, presented: Buffer): boolean {
  return safeEqual(stored, presented);
}

interface NewApiKey {
  kind: ApiKeyKind;
  name?: string | null;
  memberId?: number | null;
  domainId?: number | null;
}

export interface CreatedApiKey {
  id: string;
  kind: ApiKeyKind;
  key: string;
}

export async function createApiKey(
  db: Kysely<Database>,
  secrets: Secrets,
  teamId: number,
  input: NewApiKey,
): Promise<CreatedApiKey> {
  const key = `hk_${randomToken(32)}`;
  const id = newId('key_');
  await db
    .insertInto('api_keys')
    .values({
      id,
      team_id: teamId,
      kind: input.kind,
      name: input.name ?? null,
      key_hash: hashApiKey(secrets, key),
      key_hint: `hk_…${key.slice(-4)}`,
      member_id: input.memberId ?? null,
      domain_id: input.domainId ?? null,
    })
    .execute();
  return { id, kind: input.kind, key };
}

/** A deleted key stops working at once, in every API process (see auth-events.ts). */
export async function deleteApiKey(db: Kysely<Database>, teamId: number, keyId: string): Promise<boolean> {
  return db.transaction().execute(async (tx) => {
    const result = await tx
      .deleteFrom('api_keys')
      .where('team_id', '=', teamId)
      .where('id', '=', keyId)
      .executeTakeFirst();
    if (result.numDeletedRows === 0n) return false;
    await announceAuthChange(tx, teamId);
    return true;
  });
}

export async function listApiKeys(db: Kysely<Database>, teamId: number) {
  return db
    .selectFrom('api_keys')
    .select(['id', 'kind', 'name', 'key_hint', 'member_id', 'domain_id', 'created_at'])
    .where('team_id', '=', teamId)
    .orderBy('created_at')
    .execute();
}

/** What a request authenticated with a key may be checked against. */
export interface Principal {
  keyId: string;
  keyHash: Buffer;
  teamId: number;
  kind: ApiKeyKind;
  domainId: number | null;
  memberId: number | null;
  /** The maker's role today; null when the maker was never recorded or has left the team. */
  makerRole: 'OWNER' | 'ADMIN' | 'MEMBER' | null;
  apiRateLimit: number;
  /**
   * The team's effective plan (platform/effective-plan.ts) when the key was looked up (cached up to a minute): only a hint for choosing a
   * send path (emails/send.ts); every limit is checked against the plan read at send time.
   */
  planHint: TeamPlan | null;
}

export async function findPrincipalByHash(db: Kysely<Database>, keyHash: Buffer): Promise<Principal | null> {
  const row = await db
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
      effectivePlanSql('t').as('plan'),
    ])
    .where('k.key_hash', '=', keyHash)
    .executeTakeFirst();
  if (!row || !keysMatch(row.key_hash, keyHash)) return null;
  return {
    keyId: row.id,
    keyHash: row.key_hash,
    teamId: row.team_id,
    kind: row.kind,
    domainId: row.domain_id,
    memberId: row.member_id,
    makerRole: row.role ?? null,
    apiRateLimit: row.api_rate_limit,
    planHint: row.plan,
  };
}
