// Key lookups must not hit the database on every request once warm. Entries are dropped at once
// when anything they depend on changes: a key deleted, a member's role changed, a team's rate
// limit changed. The change is announced with NOTIFY on 'herald_auth' (payload: team id) in the
// writer's transaction, so every API process drops the team's entries at commit; the writing
// process also drops them directly. A short TTL bounds staleness if a notification is ever lost.
//
// Warm entries are found by the presented key itself, so a warm request computes no HMAC (that was
// the largest cost of an authenticated no-op). The key is already in this process's memory while
// its request runs; a cold lookup goes through the keyed hash and the constant-time comparison.
//
// A key's last use (GET /v1/api-keys `lastUsedAt`) is written here, on the cold path only: an entry
// lives a minute, so a key in steady use is looked up about once a minute per process, and the
// write is skipped (and conditioned in SQL) when the stored time is less than a minute old. Warm
// requests write nothing.
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { Clock } from '../clock.ts';
import type { Secrets } from '../crypto.ts';
import { findPrincipalByHash, hashApiKey, type FoundKey, type Principal } from './api-keys.ts';
import { KEY_USE_RESOLUTION_MS, markKeyUsed } from './queries.ts';

const TTL_MS = 60_000;
const MAX_ENTRIES = 50_000;

interface Entry {
  principal: Principal;
  expiresAt: number;
}

export class PrincipalCache {
  readonly #entries = new Map<string, Entry>();
  readonly #db: Kysely<Database>;
  readonly #clock: Clock;
  readonly #secrets: Secrets;
  /** Bumped by every invalidation: a lookup that raced one must not cache what it read before. */
  #generation = 0;

  constructor(db: Kysely<Database>, clock: Clock, secrets: Secrets) {
    this.#db = db;
    this.#clock = clock;
    this.#secrets = secrets;
  }

  /** The cached principal of a presented key, without waiting; undefined when not warm. */
  peek(key: string): Principal | undefined {
    const hit = this.#entries.get(key);
    return hit && hit.expiresAt > this.#clock.now().getTime() ? hit.principal : undefined;
  }

  async lookup(key: string): Promise<Principal | null> {
    const warm = this.peek(key);
    if (warm) return warm;
    const generation = this.#generation;
    const found = await findPrincipalByHash(this.#db, hashApiKey(this.#secrets, key));
    if (!found) return null;
    const { principal } = found;
    await this.#noteUse(found);
    // Unknown keys are not cached: a flood of random keys must not evict real ones.
    if (generation === this.#generation) {
      if (this.#entries.size >= MAX_ENTRIES) this.#entries.delete(this.#entries.keys().next().value!);
      this.#entries.set(key, { principal, expiresAt: this.#clock.now().getTime() + TTL_MS });
    }
    return principal;
  }

  /** Writes the key's last use when the stored one is a minute old or more. */
  async #noteUse({ principal, lastUsedAt }: FoundKey): Promise<void> {
    const now = this.#clock.now();
    if (lastUsedAt !== null && now.getTime() - lastUsedAt.getTime() < KEY_USE_RESOLUTION_MS) return;
    try {
      await markKeyUsed(this.#db, principal.teamId, principal.keyId, now);
    } catch {
      // A hint for people, not a rule: a failed write must not fail the request it came with.
    }
  }

  invalidateTeam(teamId: number): void {
    this.#generation += 1;
    for (const [key, entry] of this.#entries) {
      if (entry.principal.teamId === teamId) this.#entries.delete(key);
    }
  }

  clear(): void {
    this.#entries.clear();
  }
}
