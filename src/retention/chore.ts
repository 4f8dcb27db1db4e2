// The retention chore: once a day, one process at a time (the chores table), the run of run.ts.
import { defineChore, type Chore } from '../queue/index.ts';
import type { RetentionDays } from './plan.ts';
import { runRetention } from './run.ts';

const HOUR = 60 * 60 * 1000;

export function retentionChore(days: RetentionDays): Chore {
  return defineChore({
    name: 'retention',
    // Hourly: partitions ahead cost a catalogue read when they exist, and a month past its
    // retention goes within the hour; bodies resume from the last run's mark.
    everyMs: HOUR,
    leaseMs: 30 * 60 * 1000,
    run: async ({ db, clock, logger, signal }) => {
      const report = await runRetention(db, clock.now(), days, signal);
      if (report.notMade.length > 0)
        logger.warn({ notMade: report.notMade }, 'month partitions not made: the DEFAULT partition holds rows of them');
      if (report.waited.length > 0)
        logger.info({ waited: report.waited }, 'month partitions left for the next run: writes held their tables');
      if (report.held.length > 0) logger.info({ held: report.held }, 'expired months kept for rows not yet final');
      if (report.busy.length > 0)
        logger.info({ busy: report.busy }, 'expired months left for the next run: writes held their tables');
      if (report.dropped.length > 0 || report.bodiesRemoved > 0)
        logger.info({ dropped: report.dropped, bodiesRemoved: report.bodiesRemoved, ...days }, 'retention run');
    },
  });
}
