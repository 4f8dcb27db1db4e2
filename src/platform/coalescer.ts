// Group commit for hot statements: calls that arrive while batches are in the database wait and go
// together in the next one, so under load many requests share one round trip and one commit, and
// an idle service still answers the first call at once. At most `concurrency` batches run at once.
// If a batch fails, its items are run again one by one, so one bad item fails only its own call.

export interface CoalescerOptions<In> {
  /** Largest batch. */
  maxBatch: number;
  /** Batches in the database at once (default 1). */
  concurrency?: number;
  /** May `item` join `batch`? Items that may not wait for a later batch, in arrival order. */
  canJoin?: (batch: readonly In[], item: In) => boolean;
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

  /** `run` answers for every item, in order. */
  constructor(run: (items: In[]) => Promise<Out[]>, options: CoalescerOptions<In>) {
    this.#run = run;
    this.#options = options;
  }

  submit(item: In): Promise<Out> {
    return new Promise<Out>((resolve, reject) => {
      this.#queue.push({ item, resolve, reject });
      if (this.#running < (this.#options.concurrency ?? 1)) void this.#drain();
    });
  }

  async #drain(): Promise<void> {
    this.#running += 1;
    try {
      while (this.#queue.length > 0) await this.#runBatch(this.#take());
    } finally {
      this.#running -= 1;
    }
  }

  #take(): Waiting<In, Out>[] {
    const batch: Waiting<In, Out>[] = [];
    const rest: Waiting<In, Out>[] = [];
    for (const waiting of this.#queue) {
      const items = batch.map((w) => w.item);
      if (batch.length < this.#options.maxBatch && (this.#options.canJoin?.(items, waiting.item) ?? true)) batch.push(waiting);
      else rest.push(waiting);
    }
    this.#queue = rest;
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
