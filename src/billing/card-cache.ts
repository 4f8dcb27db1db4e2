// Answers of the card processor kept briefly per team, so a burst of reads (and every team's
// reads together, against the deployment-wide invoice limit) does not become a burst of calls.
import type { Clock } from '../platform/clock.ts';

export const CARD_CACHE_MS = 30_000;
const MAX_ENTRIES = 10_000;

export class CardCache {
  readonly #entries = new Map<string, { value: unknown; expiresAt: number }>();
  readonly #clock: Clock;

  constructor(clock: Clock) {
    this.#clock = clock;
  }

  /** Forgets what was kept for a team (a Stripe event said its invoices or subscription changed). */
  dropTeam(teamId: number): void {
    for (const key of this.#entries.keys()) {
      if (key.split(':')[1] === String(teamId)) this.#entries.delete(key);
    }
  }

  async get<T>(key: string, load: () => Promise<T>): Promise<T> {
    const now = this.#clock.now().getTime();
    const hit = this.#entries.get(key);
    if (hit && hit.expiresAt > now) return hit.value as T;
    const value = await load();
    if (this.#entries.size >= MAX_ENTRIES) this.#entries.delete(this.#entries.keys().next().value!);
    this.#entries.set(key, { value, expiresAt: now + CARD_CACHE_MS });
    return value;
  }
}
