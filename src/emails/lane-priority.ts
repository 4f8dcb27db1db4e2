// Transactional mail first, within a worker: the bulk lane (campaigns, journeys) starts no message
// while the transactional lane has a batch in hand, so a password reset never waits in the process
// behind campaign mail being built and signed (delivery.ts works bulk mail one message at a time).
export class LanePriority {
  #urgent = 0;
  #waiting: (() => void)[] = [];

  /** Runs transactional work; bulk messages wait until none is in hand. */
  async urgent<T>(work: () => Promise<T>): Promise<T> {
    this.#urgent++;
    try {
      return await work();
    } finally {
      if (--this.#urgent === 0) {
        const waiting = this.#waiting;
        this.#waiting = [];
        for (const resume of waiting) resume();
      }
    }
  }

  /** Resolves when no transactional work is in hand (at once when none is). */
  clear(): Promise<void> {
    return this.#urgent === 0 ? Promise.resolve() : new Promise((resolve) => this.#waiting.push(resolve));
  }
}

/** Which lane, and the priority its worker's two lanes share. */
export interface Lane {
  kind: 'urgent' | 'bulk';
  priority: LanePriority;
}
