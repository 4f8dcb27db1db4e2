// RCPT TO for an inbox, answered from memory when the address was found live in the last minute:
// mail to a busy inbox then waits for no lookup before its DATA (bench/RESULTS.md). Deleting an
// inbox notifies INBOX_CHANNEL (queries.ts) in its transaction, and every listener forgets the
// address when the notification arrives (milliseconds); one whose listening connection was lost
// forgets everything. An address not known to be live is always looked up, so a new inbox takes
// mail at once.
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { Clock } from '../platform/clock.ts';
import { liveInboxExists } from './queries.ts';

const KEEP_MS = 60_000;
/** Past this many remembered addresses, memory starts over: a bound, not a working size. */
const MAX_ADDRESSES = 10_000;

export class LiveInboxAddresses {
  readonly #db: Kysely<Database>;
  readonly #clock: Clock;
  /** Address -> until when it is taken as live without a lookup. */
  readonly #live = new Map<string, number>();
  /** Counts forgets: a lookup that a deletion's notification overtook does not remember its answer. */
  #forgets = 0;

  constructor(db: Kysely<Database>, clock: Clock) {
    this.#db = db;
    this.#clock = clock;
  }

  /** Whether a live inbox has this address (lower case, no +tag). */
  async has(address: string): Promise<boolean> {
    const now = this.#clock.now().getTime();
    if ((this.#live.get(address) ?? 0) > now) return true;
    const forgets = this.#forgets;
    const live = await liveInboxExists(this.#db, address);
    if (!live) this.#live.delete(address);
    else if (forgets === this.#forgets) {
      if (this.#live.size >= MAX_ADDRESSES) this.#live.clear();
      this.#live.set(address, now + KEEP_MS);
    }
    return live;
  }

  forget(address: string): void {
    this.#forgets++;
    this.#live.delete(address);
  }

  clear(): void {
    this.#forgets++;
    this.#live.clear();
  }
}
