// The runner's chore loop: every poll, claim whichever of its chores are due and run them.
import { claimDueChores, finishChore, registerChores, releaseChore, type Chore, type ClaimedChore } from './chores.ts';
import { errorMessage } from './define-queue.ts';
import type { LaneDeps } from './queue-lane.ts';
import { WakeSignal } from './wake.ts';

interface RunningChore {
  claimed: ClaimedChore;
  abort: AbortController;
  abandoned: boolean;
  done: Promise<void>;
}

export class ChoreLane {
  readonly #chores: readonly Chore[];
  readonly #deps: LaneDeps;
  readonly #wake = new WakeSignal();
  readonly #running = new Map<string, RunningChore>();
  #stopping = false;
  #loop: Promise<void> = Promise.resolve();

  constructor(chores: readonly Chore[], deps: LaneDeps) {
    this.#chores = chores;
    this.#deps = deps;
  }

  start(): void {
    if (this.#chores.length > 0) this.#loop = this.#run();
  }

  notify(): void {
    this.#wake.fire();
  }

  async #run(): Promise<void> {
    const { db, clock, logger, pollMs } = this.#deps;
    let registered = false;
    while (!this.#stopping) {
      this.#wake.clear();
      try {
        if (!registered) await registerChores(db, this.#chores, clock.now());
        registered = true;
        // A chore still running here (past its lease) is not claimed a second time by this process.
        const idle = this.#chores.filter((chore) => !this.#running.has(chore.name));
        for (const claimed of await claimDueChores(db, idle, clock.now())) this.#startChore(claimed);
      } catch (error) {
        logger.error({ err: error }, 'chore claim failed');
      }
      await this.#wake.wait(pollMs);
    }
  }

  #startChore(claimed: ClaimedChore): void {
    const { db, clock, logger } = this.#deps;
    const { chore } = claimed;
    const running: RunningChore = { claimed, abort: new AbortController(), abandoned: false, done: Promise.resolve() };
    const startedAt = clock.now();
    const run = async () => {
      let error: string | null = null;
      try {
        await chore.run({ name: chore.name, db, clock, startedAt, signal: running.abort.signal, logger });
      } catch (thrown) {
        error = errorMessage(thrown);
        logger.error({ chore: chore.name, err: thrown }, 'chore failed');
      }
      if (running.abandoned) return;
      if (!(await finishChore(db, claimed, startedAt, error))) {
        logger.warn({ chore: chore.name }, 'chore lease expired before the run was recorded');
      }
    };
    running.done = run()
      .catch((error: unknown) => logger.error({ chore: chore.name, err: error }, 'chore run not recorded'))
      .finally(() => this.#running.delete(chore.name));
    this.#running.set(chore.name, running);
  }

  /** Like QueueLane.stop: stop claiming, wait until `deadline`, then release unfinished chores. */
  async stop(deadline: Promise<void>): Promise<number> {
    this.#stopping = true;
    this.#wake.fire();
    await this.#loop;
    const drained = Promise.all([...this.#running.values()].map((r) => r.done)).then(() => true);
    if (await Promise.race([drained, deadline.then(() => false)])) return 0;
    const left = [...this.#running.values()];
    for (const running of left) {
      running.abandoned = true;
      running.abort.abort(new Error('queue runner stopped'));
      await releaseChore(this.#deps.db, running.claimed).catch((error: unknown) =>
        this.#deps.logger.error({ chore: running.claimed.chore.name, err: error }, 'chore release failed'),
      );
    }
    return left.length;
  }
}
