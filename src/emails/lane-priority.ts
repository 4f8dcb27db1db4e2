// Transactional mail first, within a worker: the bulk lane (campaigns, journeys) works a few messages
// of a batch at a time and starts none while the transactional lane has a batch in hand, so a
// password reset never waits in the process behind campaign mail being built and signed.
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

/** Bulk messages in hand at once per batch: few, so that transactional work waits behind few. */
export const BULK_STEP = 4;

/** `work` on every item, at most `step` at a time, results in item order. */
export async function inSteps<T, R>(items: T[], step: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await work(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(step, items.length) }, worker));
  return results;
}
