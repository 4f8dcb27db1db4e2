// API keys as auth sees them: stored only as a keyed hash (HMAC-SHA256 with a key derived from
// HERALD_SECRET), looked up by that hash and compared in constant time. Minting, listing and
// deleting keys is Accounts' (src/accounts/api-keys.ts).
import type { Kysely } from 'kysely';
import type { ApiKeyKind, Database } from '../../db/schema.ts';
import { safeEqual, type Secrets } from '../crypto.ts';
import { findKeyByHash } from './queries.ts';

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

/** What a request authenticated with a key (or a dashboard session) may be checked against. */
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
   * Set when a dashboard session made the request (its herald_session cookie, no key): the principal
   * is then the one a full access key made by the session's member in the chosen team would give
   * (platform/auth/session-auth.ts), and keyId is `session:<id>`.
   */
  sessionId?: string;
}

/** A key found by its hash, and when it was last recorded as used (null: never). */
export interface FoundKey {
  principal: Principal;
  lastUsedAt: Date | null;
}

export async function findPrincipalByHash(db: Kysely<Database>, keyHash: Buffer): Promise<FoundKey | null> {
  const row = await findKeyByHash(db, keyHash);
  if (!row || !keysMatch(row.key_hash, keyHash)) return null;
  return {
    principal: {
      keyId: row.id,
      keyHash: row.key_hash,
      teamId: row.team_id,
      kind: row.kind,
      domainId: row.domain_id,
      memberId: row.member_id,
      makerRole: row.role ?? null,
      apiRateLimit: row.api_rate_limit,
    },
    lastUsedAt: row.last_used_at,
  };
}
