// What a worker's planner-statistics chore does (src/db/statistics.ts), beside a benchmark's
// measurements: once before (a worker has run it within the last minute), then every minute. This
// machine's server runs with autovacuum off; a deployment's worker runs the chore whatever its
// server does, so a table filled during a run is analysed within a minute, as here.
import { refreshStatistics } from '../src/db/statistics.ts';

type Db = Parameters<typeof refreshStatistics>[0];

/** Starts the chore (its first run awaited); stop() ends it once the run under way is over. */
export async function startStatisticsChore(db: Db): Promise<{ stop(): Promise<void> }> {
  await refreshStatistics(db, 'pg');
  let chore: Promise<unknown> = Promise.resolve();
  const timer = setInterval(() => (chore = chore.then(() => refreshStatistics(db, 'pg'))), 60_000);
  return {
    async stop() {
      clearInterval(timer);
      await chore;
    },
  };
}

/** Runs `measure` beside the chore. */
export async function withStatisticsChore<T>(db: Db, measure: () => Promise<T>): Promise<T> {
  const chore = await startStatisticsChore(db);
  try {
    return await measure();
  } finally {
    await chore.stop();
  }
}
