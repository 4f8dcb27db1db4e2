// QueueRunner: runs a worker process's queues and chores. Any number of runners, in any number of
// processes, cooperate through the database alone (leases and SKIP LOCKED); no broker.
import type { Registry } from 'prom-client';
import type { DbHandle } from '../db/connect.ts';
import { systemClock, type Clock } from '../platform/clock.ts';
import { ChoreLane } from './chore-lane.ts';
import type { Chore } from './chores.ts';
import type { Queue } from './define-queue.ts';
import { noMetrics, queueMetrics } from './metrics.ts';
import { QueueLane, type LaneDeps } from './queue-lane.ts';
import { silentLogger, type Lane, type QueueLogger } from './types.ts';
import { QUEUE_CHANNEL } from './wake.ts';

export interface QueueRunnerOptions {
  database: DbHandle;
  queues?: readonly Queue[];
  /** Work loops of their own (e.g. webhook delivery), woken, drained and stopped like queues. */
  lanes?: readonly Lane[];
  chores?: readonly Chore[];
  clock?: Clock;
  /** Fallback when no notification comes (lost NOTIFY, rows whose due time arrives). Default 1 s. */
  pollMs?: number;
  /** How long stop() waits for running batches before releasing their rows. Default 30 s. */
  stopTimeoutMs?: number;
  /** Batches in flight per queue, overriding the queues' own setting (one number, or by queue name). */
  concurrency?: number | Readonly<Record<string, number>>;
  /** LISTEN for cross-process wake-ups. Default true. */
  listen?: boolean;
  metrics?: Registry;
  logger?: QueueLogger;
}

export interface StopReport {
  /** Rows whose lease was handed back because their batch did not finish in time. */
  releasedRows: number;
  releasedChores: number;
}

export class QueueRunner {
  readonly #options: QueueRunnerOptions;
  readonly #lanes = new Map<string, Lane>();
  readonly #choreLane: ChoreLane;
  readonly #logger: QueueLogger;
  #unlisten: (() => Promise<void>) | null = null;
  #state: 'new' | 'running' | 'stopped' = 'new';
  #stopped: Promise<StopReport> | null = null;

  constructor(options: QueueRunnerOptions) {
    this.#options = options;
    this.#logger = options.logger ?? silentLogger;
    const deps: LaneDeps = {
      db: options.database.db,
      clock: options.clock ?? systemClock,
      logger: this.#logger,
      metrics: options.metrics ? queueMetrics(options.metrics) : noMetrics,
      pollMs: options.pollMs ?? 1000,
    };
    for (const queue of options.queues ?? []) {
      if (this.#lanes.has(queue.name)) throw new Error(`queue ${queue.name} given twice`);
      this.#lanes.set(queue.name, new QueueLane(queue, deps, this.#concurrencyOf(queue)));
    }
    for (const lane of options.lanes ?? []) {
      if (this.#lanes.has(lane.name)) throw new Error(`queue ${lane.name} given twice`);
      this.#lanes.set(lane.name, lane);
    }
    const choreNames = new Set((options.chores ?? []).map((chore) => chore.name));
    if (choreNames.size !== (options.chores ?? []).length) throw new Error('chore names must be unique');
    this.#choreLane = new ChoreLane(options.chores ?? [], deps);
  }

  #concurrencyOf(queue: Queue): number {
    const setting = this.#options.concurrency;
    const value = typeof setting === 'number' ? setting : (setting?.[queue.name] ?? queue.concurrency);
    if (!Number.isInteger(value) || value < 1)
      throw new Error(`queue ${queue.name}: concurrency must be a positive integer`);
    return value;
  }

  /** Resolves once the runner listens for notifications, so a NOTIFY sent after it is not missed. */
  async start(): Promise<void> {
    if (this.#state !== 'new') throw new Error('a QueueRunner starts once');
    this.#state = 'running';
    if (this.#options.listen !== false && this.#lanes.size > 0) {
      // Wake-ups missed while the listener was down: every queue looks again.
      this.#unlisten = await this.#options.database.listen(QUEUE_CHANNEL, (name) => this.notify(name), {
        onResume: () => this.wake(),
      });
    }
    for (const lane of this.#lanes.values()) lane.start();
    this.#choreLane.start();
    this.#logger.info({ queues: [...this.#lanes.keys()] }, 'queue runner started');
  }

  /** Work was added to `queueName`: claim now instead of at the next poll. Unknown names are ignored. */
  notify(queueName: string): void {
    this.#lanes.get(queueName)?.notify();
  }

  /**
   * Resolves when every queue (or just `queueName`) has found nothing due in a claim started after
   * this call: e.g. a test moved its clock and waits until the work that became due is done.
   */
  async idle(queueName?: string): Promise<void> {
    const lanes =
      queueName === undefined
        ? [...this.#lanes.values()]
        : [this.#lanes.get(queueName)].filter((lane) => lane !== undefined);
    await Promise.all(lanes.map((lane) => lane.idle()));
  }

  /** Wakes every queue and the chores (e.g. after a test moved its clock). */
  wake(): void {
    for (const lane of this.#lanes.values()) lane.notify();
    this.#choreLane.notify();
  }

  /**
   * Stops claiming, lets running batches and chores finish for up to timeoutMs, then gives the rows of
   * the unfinished ones back (lease cleared) so another worker takes them without waiting for expiry.
   */
  stop(options: { timeoutMs?: number } = {}): Promise<StopReport> {
    this.#stopped ??= this.#stop(options.timeoutMs ?? this.#options.stopTimeoutMs ?? 30_000);
    return this.#stopped;
  }

  async #stop(timeoutMs: number): Promise<StopReport> {
    this.#state = 'stopped';
    await this.#unlisten?.().catch(() => {});
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, timeoutMs);
    });
    try {
      const [rows, chores] = await Promise.all([
        Promise.all([...this.#lanes.values()].map((lane) => lane.stop(deadline))),
        this.#choreLane.stop(deadline),
      ]);
      const report = { releasedRows: rows.reduce((a, b) => a + b, 0), releasedChores: chores };
      this.#logger.info({ ...report }, 'queue runner stopped');
      return report;
    } finally {
      clearTimeout(timer);
    }
  }
}
