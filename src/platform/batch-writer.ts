// Group commit for work nobody waits on: the tracking pixel's opens and clicks (answered before
// they are written) and the inbound messages a listener has spooled (answered 250 once spooled).
// Items wait in an array and one writer takes up to maxBatch of them at a time, so under load one
// statement carries hundreds of them (a busy writer waits gatherMs between batches to let them
// gather), and an idle service writes the first item at once. Unlike coalescer.ts there is no
// promise per item (the pixel is the hot path; the caller does not await its write).
//
// Bounded: past `limit` unwritten events, add() hands back a promise of the event's write, which the
// request awaits (memory stays bounded under overload, nothing is dropped). A failed batch is written
// again event by event, so one bad event fails alone; its failure goes to onError.
interface BatchWriterOptions<E> {
  write: (events: E[]) => Promise<void>;
  onError: (error: unknown, event: E) => void;
  maxBatch: number;
  limit: number;
  /** After a batch, wait this long for more events before taking the next (0: take at once). The
   * first event after an idle spell is written at once; only a busy writer waits. */
  gatherMs: number;
}

interface Waiter {
  /** Resolved once this many events have been written (or failed). */
  upTo: number;
  resolve: () => void;
}

export class BatchWriter<E> {
  readonly #options: BatchWriterOptions<E>;
  #pending: E[] = [];
  #running = false;
  /** Events added, and events taken care of (written or reported), since the start. */
  #added = 0;
  #done = 0;
  #waiters: Waiter[] = [];
  #idle: (() => void)[] = [];

  constructor(options: BatchWriterOptions<E>) {
    this.#options = options;
  }

  /** Events added and not yet written (or reported failed). */
  get backlog(): number {
    return this.#added - this.#done;
  }

  /** Queues the event; answers a promise to await only when the backlog is past the limit. */
  add(event: E): Promise<void> | null {
    this.#pending.push(event);
    this.#added += 1;
    if (!this.#running) void this.#run();
    if (this.#added - this.#done <= this.#options.limit) return null;
    const upTo = this.#added;
    return new Promise<void>((resolve) => this.#waiters.push({ upTo, resolve }));
  }

  /** Resolves when nothing is waiting to be written. */
  drained(): Promise<void> {
    return !this.#running && this.#pending.length === 0
      ? Promise.resolve()
      : new Promise<void>((resolve) => this.#idle.push(resolve));
  }

  async #run(): Promise<void> {
    this.#running = true;
    while (this.#pending.length > 0) {
      const batch =
        this.#pending.length <= this.#options.maxBatch ? this.#pending : this.#pending.slice(0, this.#options.maxBatch);
      this.#pending = batch === this.#pending ? [] : this.#pending.slice(batch.length);
      await this.#writeBatch(batch);
      this.#done += batch.length;
      if (this.#waiters.length > 0) this.#wake();
      // Busy: a statement costs about the same for 50 events as for 200, so let more gather.
      if (this.#pending.length > 0 && this.#pending.length < this.#options.maxBatch && this.#options.gatherMs > 0) {
        await new Promise((resolve) => setTimeout(resolve, this.#options.gatherMs));
      }
    }
    this.#running = false;
    for (const resolve of this.#idle.splice(0)) resolve();
  }

  async #writeBatch(batch: E[]): Promise<void> {
    try {
      await this.#options.write(batch);
    } catch (error) {
      if (batch.length === 1) return this.#options.onError(error, batch[0]!);
      for (const event of batch) {
        try {
          await this.#options.write([event]);
        } catch (own) {
          this.#options.onError(own, event);
        }
      }
    }
  }

  #wake(): void {
    const still: Waiter[] = [];
    for (const waiter of this.#waiters) {
      if (waiter.upTo <= this.#done) waiter.resolve();
      else still.push(waiter);
    }
    this.#waiters = still;
  }
}
