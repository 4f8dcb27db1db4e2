// The listener's admitted connections, kept in the order in which they fell idle, so that a full
// listener can close the idlest one to let a new sender in. Idle here means the client owes us its
// next command: a connection in a mail transaction (MAIL FROM accepted, until the reply to its DATA)
// is never chosen, so a sender that is mid-transaction always gets through, and a client that never
// sent a command goes before one that did (the hostile pattern: connect, take the greeting, say nothing).

/** Why a connection was chosen: it never sent a command, or it is between mail transactions. */
export type IdleKind = 'silent' | 'idle';

export class OpenConnections<T> {
  /** Connections that have not sent a command yet, in admission order (oldest first). */
  readonly #silent = new Map<string, T>();
  /** Connections that have, in the order of their last command (idlest first). */
  readonly #talking = new Map<string, T>();
  readonly #inTransaction: (connection: T) => boolean;

  /** `inTransaction` says whether a connection is inside a mail transaction (it is then never chosen). */
  constructor(inTransaction: (connection: T) => boolean) {
    this.#inTransaction = inTransaction;
  }

  get size(): number {
    return this.#silent.size + this.#talking.size;
  }

  add(id: string, connection: T): void {
    this.#silent.set(id, connection);
  }

  /** A command arrived on `id`: it moves to the busy end. True when it was the connection's first command. */
  commandSeen(id: string): boolean {
    const silent = this.#silent.get(id);
    if (silent !== undefined) {
      this.#silent.delete(id);
      this.#talking.set(id, silent);
      return true;
    }
    const talking = this.#talking.get(id);
    if (talking !== undefined) {
      // Deleting and setting again moves it last: a Map iterates in insertion order.
      this.#talking.delete(id);
      this.#talking.set(id, talking);
    }
    return false;
  }

  get(id: string): T | undefined {
    return this.#silent.get(id) ?? this.#talking.get(id);
  }

  remove(id: string): T | undefined {
    const connection = this.get(id);
    this.#silent.delete(id);
    this.#talking.delete(id);
    return connection;
  }

  /**
   * The connection to close to make room, taken out of the set: the longest silent one, else the one
   * idle longest between transactions; null when every connection is inside a transaction.
   */
  takeIdlest(): { id: string; connection: T; kind: IdleKind } | null {
    for (const [id, connection] of this.#silent) {
      this.#silent.delete(id);
      return { id, connection, kind: 'silent' };
    }
    // Connections in a transaction are skipped; there are at most as many as the listener holds.
    for (const [id, connection] of this.#talking) {
      if (this.#inTransaction(connection)) continue;
      this.#talking.delete(id);
      return { id, connection, kind: 'idle' };
    }
    return null;
  }
}
