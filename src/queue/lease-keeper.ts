// Lease renewal for queues with short leases (`leaseRenewMs`): the rows of a killed worker come back
// within seconds, while a worker that is alive and slow keeps them by renewing every few seconds. The
// lease's value is also its holder's mark (every write back matches on it), so a renewal changes the
// mark: writes under the lease (`underLease`) and renewals take turns, never overlap, and a write
// always carries the mark the rows have.
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { Clock } from '../platform/clock.ts';
import { leaseFor, renewLeases, type ClaimedBatch } from './claim.ts';
import type { Queue } from './define-queue.ts';
import type { BatchContext, JobId, QueueLogger } from './types.ts';

export interface LeaseKeeperDeps {
  db: Kysely<Database>;
  clock: Clock;
  logger: QueueLogger;
}

export class LeaseKeeper {
  readonly #deps: LeaseKeeperDeps;
  readonly #queue: Queue;
  /** Its leaseUntil is moved on by each renewal: the lane's context and stop() read it from there. */
  readonly #claimed: ClaimedBatch;
  readonly #ids: readonly JobId[];
  #timer: NodeJS.Timeout | null = null;
  #renewing: Promise<void> | null = null;
  #writes = 0;
  #writesEnded: (() => void) | null = null;

  constructor(deps: LeaseKeeperDeps, queue: Queue, claimed: ClaimedBatch, ids: readonly JobId[]) {
    this.#deps = deps;
    this.#queue = queue;
    this.#claimed = claimed;
    this.#ids = ids;
  }

  start(): void {
    const every = this.#queue.leaseRenewMs;
    if (every === null) return;
    this.#timer = setInterval(() => void this.#renew(), every);
    // A renewal timer alone must not keep a process alive.
    this.#timer.unref();
  }

  /** Runs a write that matches on the lease with the lease the rows carry now; a renewal waits for it. */
  async underLease<T>(write: (leaseUntil: Date) => Promise<T>): Promise<T> {
    while (this.#renewing !== null) await this.#renewing;
    this.#writes++;
    try {
      return await write(this.#claimed.leaseUntil);
    } finally {
      if (--this.#writes === 0) this.#writesEnded?.();
    }
  }

  async #renew(): Promise<void> {
    if (this.#renewing !== null) return;
    let renewed!: () => void;
    this.#renewing = new Promise((resolve) => (renewed = resolve));
    try {
      // New writes wait from here on; the ones under way finish with the old mark first.
      if (this.#writes > 0) await new Promise<void>((resolve) => (this.#writesEnded = resolve));
      this.#writesEnded = null;
      const current = this.#claimed.leaseUntil;
      const now = this.#deps.clock.now();
      // Expired (a stalled process, or a clock moved on): another worker may claim the rows now, so
      // they are not taken back; writes under the old lease still hold until someone does.
      if (current.getTime() < now.getTime()) {
        this.#deps.logger.debug({ queue: this.#queue.name }, 'lease ran out before its renewal');
        return;
      }
      const next = leaseFor(this.#queue, now);
      if (next.getTime() <= current.getTime()) return;
      const kept = await renewLeases(this.#deps.db, this.#queue, this.#ids, current, next);
      // Rows not renewed are no longer ours (deleted, or taken over after a lapse): their writes match nothing.
      this.#claimed.leaseUntil = next;
      if (kept < this.#ids.length)
        this.#deps.logger.debug(
          { queue: this.#queue.name, kept, held: this.#ids.length },
          'lease renewed for part of a batch',
        );
    } catch (error) {
      // The old lease stands; the next renewal tries again before it runs out.
      this.#deps.logger.warn({ queue: this.#queue.name, err: error }, 'queue lease renewal failed');
    } finally {
      this.#renewing = null;
      renewed();
    }
  }

  /** No more renewals; waits for one under way, so that the batch is written back with the rows' mark. */
  async stop(): Promise<void> {
    if (this.#timer !== null) clearInterval(this.#timer);
    this.#timer = null;
    while (this.#renewing !== null) await this.#renewing;
  }
}

/**
 * A write back that matches on the batch's lease: with the lease the rows carry now, never at the
 * same time as a renewal. For a queue without renewal (or a context a test built) it is the claim's.
 */
export function underLease<T>(ctx: BatchContext, write: (leaseUntil: Date) => Promise<T>): Promise<T> {
  return ctx.underLease === undefined ? write(ctx.leaseUntil) : ctx.underLease(write);
}
