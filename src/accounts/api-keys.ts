// Minting an API key: shown once to its maker, stored only as its keyed hash (platform/auth/api-keys.ts
// hashes and looks keys up) with a hint of its last four characters.
import type { Kysely } from 'kysely';
import type { ApiKeyKind, Database } from '../db/schema.ts';
import { hashApiKey } from '../platform/auth/api-keys.ts';
import { randomToken, type Secrets } from '../platform/crypto.ts';
import { newId } from '../platform/ids.ts';
import { insertApiKey } from './queries.ts';

interface NewApiKey {
  kind: ApiKeyKind;
  name?: string | null;
  memberId?: number | null;
  domainId?: number | null;
  /** Absent: the database's time. */
  createdAt?: Date;
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
  const id = newId('key_', input.createdAt);
  await insertApiKey(db, teamId, {
    id,
    kind: input.kind,
    name: input.name ?? null,
    keyHash: hashApiKey(secrets, key),
    keyHint: keyHint(key),
    memberId: input.memberId ?? null,
    domainId: input.domainId ?? null,
    createdAt: input.createdAt,
  });
  return { id, kind: input.kind, key };
}

/** What a list shows of a key: its last four characters. */
export function keyHint(key: string): string {
  return `hk_…${key.slice(-4)}`;
}
