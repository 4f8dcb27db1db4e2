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
  await insertApiKey(db, teamId, {
    id,
    kind: input.kind,
    name: input.name ?? null,
    keyHash: hashApiKey(secrets, key),
    keyHint: `hk_…${key.slice(-4)}`,
    memberId: input.memberId ?? null,
    domainId: input.domainId ?? null,
  });
  return { id, kind: input.kind, key };
}
