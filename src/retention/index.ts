// Monthly partitions and retention (README.md here).
export { retentionChore } from './chore.ts';
export { keptSince, retentionPlan, type RetentionPlan } from './plan.ts';
export { ensurePartitionsAhead, runRetention, type RetentionReport } from './run.ts';
