// One queue's loops inside a runner. Each of `concurrency` slots claims a batch, hands it to the
// handler, then finalises it and claims the next in one round trip; a slot sleeps only when a claim
// comes back empty, until notified or the poll interval passes. A queue with gatherMs finalises a
// batch that was not full on its own and pauses that long before claiming again. While fullBatches
// full batches are held, the other slots do not claim.
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { Clock } from '../platform/clock.ts';
import { claimDue, releaseLeases, type ClaimedBatch } from './claim.ts';
import type { Queue } from './define-queue.ts';
import { finaliseAndClaim, finaliseBatch, type FinaliseCounts } from './finalise.ts';
import { LeaseKeeper } from './lease-keeper.ts';
import type { QueueMetrics } from './metrics.ts';
import { runHandler } from './run-handler.ts';
import type { BatchContext, JobId, Lane, QueueLogger } from './types.ts';
import { pause, WakeSignal } from './wake.ts';

export interface LaneDeps {
  db: Kysely<Database>;
  clock: Clock;
  logger: QueueLogger;
  metrics: QueueMetrics;
  pollMs: number;
}

/** A claimed batch this runner holds, from the claim until it is written back (or released). */
interface HeldBatch {
  claimed: ClaimedBatch;
  ids: JobId[];
  abort: AbortController;
  /** Set by stop() after it released the rows: the batch must not write anything back. */
  abandoned: boolean;
  /** Claimed with batchSize rows: counts against queue.fullBatches. */
  full: boolean;
}

export class QueueLane implements Lane {
  readonly queue: Queue;
  readonly #deps: LaneDeps;
  readonly #concurrency: number;
  readonly #wake = new WakeSignal();
  /** Fired when a full batch ends or a claim comes back short: a slot held back by fullBatches looks again. */
  readonly #room = new WakeSignal();
  readonly #held = new Set<HeldBatch>();
  #stopping = false;
  #slots: Promise<void>[] = [];
  /** Held batches that are full, and claims under way (each may come back full). */
  #fullHeld = 0;
  #claiming = 0;
  /** Claims started so far, and who waits for an empty claim that started after a given one. */
  #claimsStarted = 0;
  #idleWaiters: { after: number; resolve: () => void }[] = [];
  /** Cut short by stop(): a slot pausing for gatherMs must not hold the stop up. */
  readonly #stopped = new AbortController();

  get name(): string {
    return this.queue.name;
  }

  constructor(queue: Queue, deps: LaneDeps, concurrency: number) {
    this.queue = queue;
    this.#deps = deps;
    this.#concurrency = concurrency;
  }

  start(): void {
    this.#slots = Array.from({ length: this.#concurrency }, () => this.#slot());
  }

  notify(): void {
    this.#wake.fire();
  }

  /**
   * Resolves when a claim that started after this call found nothing due: everything that was due
   * then has been handled (and whatever it led to that is due now too). For tests and drains.
   */
  idle(): Promise<void> {
    return new Promise((resolve) => {
      this.#idleWaiters.push({ after: this.#claimsStarted, resolve });
      this.#wake.fire();
    });
  }

  #claimedNothing(claim: number): void {
    const ready = this.#idleWaiters.filter((waiter) => waiter.after < claim);
    this.#idleWaiters = this.#idleWaiters.filter((waiter) => waiter.after >= claim);
    for (const waiter of ready) waiter.resolve();
  }

  async #slot(): Promise<void> {
    let batch: HeldBatch | null = null;
    // A batch claimed just before stop() is still worked on: stop() waits for held batches.
    while (batch !== null || !this.#stopping) {
      if (batch === null && this.#backlogged(0)) {
        // Notifications cannot free room (they go to #wake); a full batch ending or a claim coming back short does.
        await this.#room.wait(this.#deps.pollMs);
        continue;
      }
      const result: HeldBatch | null | 'gather' | 'held back' =
        batch === null ? await this.#claim() : await this.#work(batch);
      if (result === 'held back') {
        // It wrote its batch back without claiming: it waits for room (above), not for new rows.
        batch = null;
        continue;
      }
      if (result === 'gather') {
        // Notifications do not cut the pause short: they are what it waits to gather. Then a claim at once.
        batch = null;
        await pause(this.queue.gatherMs, this.#stopped.signal);
        continue;
      }
      batch = result;
      if (batch === null && !this.#stopping) await this.#wake.wait(this.#deps.pollMs);
    }
  }

  /**
   * Whether a claim now (by a slot holding `ownFull` full batches, which it is about to write back)
   * could take the full batches over queue.fullBatches. A slot writing back a full batch and claiming
   * the next counts twice meanwhile: the others may wait a moment longer, never claim too many.
   */
  #backlogged(ownFull: number): boolean {
    return this.#fullHeld - ownFull + this.#claiming >= this.queue.fullBatches;
  }

  /** Registers a claim's rows as held; null when nothing was claimed. */
  #hold(claimed: ClaimedBatch): HeldBatch | null {
    if (claimed.rows.length === 0) return null;
    const ids = claimed.rows.map((row) => row[this.queue.idColumn] as JobId);
    const full = claimed.rows.length >= this.queue.batchSize;
    const held = { claimed, ids, abort: new AbortController(), abandoned: false, full };
    this.#held.add(held);
    if (full) this.#fullHeld++;
    return held;
  }

  /** Forgets a held batch; a full one that ends lets a waiting slot claim. */
  #drop(held: HeldBatch): void {
    if (!this.#held.delete(held) || !held.full) return;
    this.#fullHeld--;
    this.#room.fire();
  }

  /**
   * A claim counted by #backlogged ended: a full one is now a held batch, a short one (or a failed
   * one) leaves room. Without the wake, a slot held back while it ran would sleep the poll interval
   * with rows due, and an idle() waiting for a claim that starts after it would wait as long.
   */
  #claimEnded(full: boolean): void {
    this.#claiming--;
    if (!full) this.#room.fire();
  }

  async #claim(): Promise<HeldBatch | null> {
    const { db, clock, logger, metrics } = this.#deps;
    const started = performance.now();
    const claim = ++this.#claimsStarted;
    this.#claiming++;
    let held: HeldBatch | null = null;
    try {
      this.#wake.clear();
      const claimed = await claimDue(db, this.queue, clock.now());
      metrics.observeClaim(this.queue.name, (performance.now() - started) / 1000);
      held = this.#hold(claimed);
      if (held === null) this.#claimedNothing(claim);
      return held;
    } catch (error) {
      logger.error({ queue: this.queue.name, err: error }, 'queue claim failed');
      return null;
    } finally {
      this.#claimEnded(held?.full === true);
    }
  }

  /**
   * Runs the handler over a held batch, writes it back, and returns the next batch if it claimed one;
   * 'gather': written back alone, the slot pauses for gatherMs before it claims again; 'held back':
   * written back alone because the other slots hold fullBatches full batches.
   */
  async #work(held: HeldBatch): Promise<HeldBatch | null | 'gather' | 'held back'> {
    const { queue } = this;
    const { db, clock, logger, metrics } = this.#deps;
    // A queue with leaseRenewMs moves held.claimed.leaseUntil on while the handler works.
    const keeper = new LeaseKeeper(this.#deps, queue, held.claimed, held.ids);
    const ctx: BatchContext = {
      queue: queue.name,
      db,
      clock,
      claimedAt: held.claimed.claimedAt,
      get leaseUntil() {
        return held.claimed.leaseUntil;
      },
      underLease: (write) => keeper.underLease(write),
      signal: held.abort.signal,
      logger,
    };
    try {
      keeper.start();
      const sorted = await runHandler(queue, held.claimed.rows, ctx, held.abort, this.#deps).finally(() =>
        keeper.stop(),
      );
      if (held.abandoned) return null;
      if (this.#stopping) {
        this.#count(await finaliseBatch(queue, sorted, ctx));
        return null;
      }
      if (queue.gatherMs > 0 && held.claimed.rows.length < queue.batchSize) {
        this.#count(await finaliseBatch(queue, sorted, ctx));
        return 'gather';
      }
      if (this.#backlogged(held.full ? 1 : 0)) {
        this.#count(await finaliseBatch(queue, sorted, ctx));
        return 'held back';
      }
      const started = performance.now();
      const claim = ++this.#claimsStarted;
      this.#claiming++;
      this.#wake.clear();
      let nextHeld: HeldBatch | null = null;
      try {
        const result = await finaliseAndClaim(queue, sorted, ctx, clock.now());
        metrics.observeClaim(queue.name, (performance.now() - started) / 1000);
        this.#count(result.counts);
        nextHeld = this.#hold(result.next);
      } finally {
        this.#claimEnded(nextHeld?.full === true);
      }
      if (nextHeld === null) this.#claimedNothing(claim);
      // Its own rows, due again, were out of that claim's sight: the slot's next wait returns at once.
      if (nextHeld === null && queue.claimAgainAtOnce) this.#wake.fire();
      return nextHeld;
    } catch (error) {
      // The rows keep their lease and come back when it expires: at least once, never lost.
      logger.error({ queue: queue.name, err: error }, 'queue batch not finalised');
      return null;
    } finally {
      this.#drop(held);
    }
  }

  #count(counts: FinaliseCounts): void {
    const { metrics, logger } = this.#deps;
    const name = this.queue.name;
    metrics.countJobs(name, 'done', counts.done);
    metrics.countJobs(name, 'retry', counts.retry);
    metrics.countJobs(name, 'failed', counts.failed);
    metrics.countJobs(name, 'lost', counts.lost);
    if (counts.lost > 0)
      logger.warn({ queue: name, lost: counts.lost }, 'lease expired before the batch was finalised');
  }

  /** Stops claiming, waits for held batches until `deadline`, then releases what is left. */
  async stop(deadline: Promise<void>): Promise<number> {
    this.#stopping = true;
    this.#stopped.abort();
    // Nothing more will be claimed: whoever waits for the lane to go idle is answered now.
    this.#claimedNothing(Number.POSITIVE_INFINITY);
    this.#wake.fire();
    this.#room.fire();
    const finished = Promise.all(this.#slots).then(() => true);
    if (await Promise.race([finished, deadline.then(() => false)])) return 0;
    let released = 0;
    for (const held of [...this.#held]) {
      held.abandoned = true;
      held.abort.abort(new Error('queue runner stopped'));
      this.#drop(held);
      try {
        released += await releaseLeases(this.#deps.db, this.queue, held.ids, held.claimed.leaseUntil);
      } catch (error) {
        // Not fatal: the lease still expires and the rows come back then.
        this.#deps.logger.error({ queue: this.queue.name, err: error }, 'queue lease release failed');
      }
    }
    return released;
  }
}
