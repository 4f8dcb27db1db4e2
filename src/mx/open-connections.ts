// The listener's admitted connections, kept in the order of their last progress, so that a full
// listener can close the idlest one to let a new sender in, whatever its state (issue 41): silent
// since its greeting, idle between mail transactions, or holding a transaction open. Only a
// connection that waits for our reply (a recipient lookup, the spool write before the 250 to DATA)
// is never chosen: it is not idle, we are. What counts as progress is the caller's rule
// (admission.ts); a dribbling client that makes none ages like a silent one.

/** The state of a connection chosen to make room: it never sent a command, is between transactions, or is in one. */
export type IdleKind = 'silent' | 'idle' | 'transaction';

export class OpenConnections<T> {
  /** In the order of their last progress (idlest first): a Map iterates in insertion order. */
  readonly #byProgress = new Map<string, T>();
  readonly #kindOf: (connection: T) => IdleKind | 'awaiting_reply';

  /** `kindOf` says what a connection is doing now; one awaiting our reply is never chosen. */
  constructor(kindOf: (connection: T) => IdleKind | 'awaiting_reply') {
    this.#kindOf = kindOf;
  }

  get size(): number {
    return this.#byProgress.size;
  }

  add(id: string, connection: T): void {
    this.#byProgress.set(id, connection);
  }

  /** `id` made progress: it moves to the busy end. */
  progressed(id: string): void {
    const connection = this.#byProgress.get(id);
    if (connection === undefined) return;
    // Deleting and setting again moves it last.
    this.#byProgress.delete(id);
    this.#byProgress.set(id, connection);
  }

  get(id: string): T | undefined {
    return this.#byProgress.get(id);
  }

  remove(id: string): T | undefined {
    const connection = this.#byProgress.get(id);
    this.#byProgress.delete(id);
    return connection;
  }

  /**
   * The connection to close to make room, taken out of the set: the one whose last progress is
   * oldest; null when every connection is waiting for our reply.
   */
  takeIdlest(): { id: string; connection: T; kind: IdleKind } | null {
    // Those awaiting a reply are skipped; there are at most as many as the listener holds.
    for (const [id, connection] of this.#byProgress) {
      const kind = this.#kindOf(connection);
      if (kind === 'awaiting_reply') continue;
      this.#byProgress.delete(id);
      return { id, connection, kind };
    }
    return null;
  }
}
