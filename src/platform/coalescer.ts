// Group commit for hot statements: calls that arrive while batches are in the database wait and go
// together in the next one, so under load many requests share one round trip and one commit, and
// an idle service still answers the first call at once. At most `concurrency` batches run at once.
// If a batch fails, its items are run again one by one, so one bad item fails only its own call.

interface CoalescerOptions<In> {
  /** Largest batch. */
  maxBatch: number;
  /** Batches in the database at once (default 1). */
  concurrency?: number;
  /** May `item` join `batch`? Items that may not wait for a later batch, in arrival order. */
  canJoin?: (batch: readonly In[], item: In) => boolean;
  /**
   * Milliseconds a batch that follows another one directly may wait for more items (default 0: it
   * starts at once). It stops waiting as soon as as many items are queued as there were callers in
   * flight when the batch before it ended (its items and those queued meanwhile), so a steady load
   * of a few callers that each wait for their answer before calling again settles into one batch
   * of all of them instead of alternating small ones. Only while busy (a batch ended less than
   * gatherMs ago): the first call after an idle spell is still answered at once.
   */
  gatherMs?: number;
}

interface Waiting<In, Out> {
  item: In;
  resolve: (value: Out) => void;
  reject: (error: unknown) => void;
}

export class Coalescer<In, Out> {
  readonly #run: (items: In[]) => Promise<Out[]>;
  readonly #options: CoalescerOptions<In>;
  #queue: Waiting<In, Out>[] = [];
  #running = 0;
  /** Callers in flight when the last batch ended (its items and those queued meanwhile), and when. */
  #inFlight = 0;
  #lastEnded = -Infinity;
  /** Drain loops gathering: each is woken on every submit and checks its own target. */
  readonly #gathering = new Set<() => void>();

  /** `run` answers for every item, in order. */
  constructor(run: (items: In[]) => Promise<Out[]>, options: CoalescerOptions<In>) {
    this.#run = run;
    this.#options = options;
  }

  submit(item: In): Promise<Out> {
    return new Promise<Out>((resolve, reject) => {
      this.#queue.push({ item, resolve, reject });
      if (this.#running < (this.#options.concurrency ?? 1)) void this.#drain();
      for (const wake of this.#gathering) wake();
    });
  }

  async #drain(): Promise<void> {
    this.#running += 1;
    try {
      while (this.#queue.length > 0) {
        // Awaited only when there is a wait: otherwise the batch is taken in this same tick, as
        // callers (and the first call after an idle spell) expect.
        const gathering = this.#gather();
        if (gathering !== null) await gathering;
        // Another drain loop may have taken everything while this one gathered.
        if (this.#queue.length === 0) break;
        const batch = this.#take();
        await this.#runBatch(batch);
        this.#inFlight = batch.length + this.#queue.length;
        this.#lastEnded = performance.now();
      }
    } finally {
      this.#running -= 1;
    }
  }

  /** With gatherMs, while busy: a wait (up to gatherMs) until as many items are queued as were in flight; null: no wait. */
  #gather(): Promise<void> | null {
    const gatherMs = this.#options.gatherMs ?? 0;
    const target = Math.min(this.#inFlight, this.#options.maxBatch);
    // Busy means a batch ended less than gatherMs ago; after an idle spell the first batch starts at once.
    if (gatherMs <= 0 || this.#queue.length >= target || performance.now() - this.#lastEnded > gatherMs) return null;
    return new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.#gathering.delete(check);
        resolve();
      };
      const check = () => {
        if (this.#queue.length >= target) done();
      };
      const timer = setTimeout(done, gatherMs);
      this.#gathering.add(check);
    });
  }

  #take(): Waiting<In, Out>[] {
    const { maxBatch, canJoin } = this.#options;
    // Without canJoin a batch is simply the oldest maxBatch items.
    if (canJoin === undefined) return this.#queue.splice(0, maxBatch);
    const batch: Waiting<In, Out>[] = [];
    // The batch's items, grown in place: canJoin sees the batch as it stands and may not keep it.
    const items: In[] = [];
    const rest: Waiting<In, Out>[] = [];
    let i = 0;
    for (; i < this.#queue.length && batch.length < maxBatch; i++) {
      const waiting = this.#queue[i]!;
      if (canJoin(items, waiting.item)) {
        batch.push(waiting);
        items.push(waiting.item);
      } else {
        rest.push(waiting);
      }
    }
    // A full batch: the others are not offered to it.
    this.#queue = i < this.#queue.length ? rest.concat(this.#queue.slice(i)) : rest;
    return batch;
  }

  async #runBatch(batch: Waiting<In, Out>[]): Promise<void> {
    try {
      const results = await this.#run(batch.map((w) => w.item));
      batch.forEach((w, i) => w.resolve(results[i]!));
    } catch (error) {
      if (batch.length === 1) {
        batch[0]!.reject(error);
        return;
      }
      for (const w of batch) {
        try {
          w.resolve((await this.#run([w.item]))[0]!);
        } catch (own) {
          w.reject(own);
        }
      }
    }
  }
}
