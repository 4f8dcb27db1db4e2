// Key lookups must not hit the database on every request once warm. Entries are dropped at once
// when anything they depend on changes: a key deleted, a member's role changed, a team's rate
// limit changed. The change is announced with NOTIFY on 'herald_auth' (payload: team id) in the
// writer's transaction, so every API process drops the team's entries at commit; the writing
// process also drops them directly. A short TTL bounds staleness if a notification is ever lost.
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { Clock } from '../clock.ts';
import { findPrincipalByHash, type Principal } from './api-keys.ts';

const TTL_MS = 60_000;
const MAX_ENTRIES = 50_000;

interface Entry {
  principal: Principal | null;
  expiresAt: number;
}

export class PrincipalCache {
  readonly #entries = new Map<string, Entry>();
  readonly #db: Kysely<Database>;
  readonly #clock: Clock;

  constructor(db: Kysely<Database>, clock: Clock) {
    this.#db = db;
    this.#clock = clock;
  }

  async lookup(keyHash: Buffer): Promise<Principal | null> {
    const cacheKey = keyHash.toString('base64');
    const now = this.#clock.now().getTime();
    const hit = this.#entries.get(cacheKey);
    if (hit && hit.expiresAt > now) return hit.principal;
    const principal = await findPrincipalByHash(this.#db, keyHash);
    // Unknown keys are not cached: a flood of random keys must not evict real ones.
    if (principal) {
      if (this.#entries.size >= MAX_ENTRIES) this.#entries.delete(this.#entries.keys().next().value!);
      this.#entries.set(cacheKey, { principal, expiresAt: now + TTL_MS });
    } else {
      this.#entries.delete(cacheKey);
    }
    return principal;
  }

  invalidateTeam(teamId: number): void {
    for (const [key, entry] of this.#entries) {
      if (entry.principal?.teamId === teamId) this.#entries.delete(key);
    }
  }

  clear(): void {
    this.#entries.clear();
  }
}
