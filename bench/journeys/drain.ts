// Running a queue until a count reaches zero, with progress and the load average on stderr (a round
// of 100,000 takes minutes, and the machine is shared).
import os from 'node:os';
import type { RawBuilder } from 'kysely';
import type { Deps } from '../../src/deps.ts';
import type { QueueRunner } from '../../src/queue/index.ts';

/** The machine is shared: the load average goes beside each figure. */
export const loadAverage = () =>
  os
    .loadavg()
    .map((n) => n.toFixed(1))
    .join(', ');

/** Wakes `queue` and waits until its runner is idle with nothing `remaining`. */
export async function drain(runner: QueueRunner, queue: string, remaining: () => Promise<number>) {
  // Progress on stderr every 10 s: a round of 100,000 takes minutes.
  const started = performance.now();
  const progress = setInterval(() => {
    void remaining().then((left) =>
      process.stderr.write(
        `${queue}: ${left.toLocaleString('en-US')} left after ${Math.round((performance.now() - started) / 1000)} s (load ${loadAverage()})\n`,
      ),
    );
  }, 10_000);
  try {
    runner.notify(queue);
    for (;;) {
      await runner.idle();
      if ((await remaining()) === 0) return;
      runner.notify(queue);
    }
  } finally {
    clearInterval(progress);
  }
}

/** The `n` of a `SELECT count(*) AS n` statement. */
export const count = async (deps: Deps, query: RawBuilder<{ n: string }>) =>
  Number((await query.execute(deps.db)).rows[0]!.n);
