// The work queue: claim due rows of the caller's own tables with a lease and SKIP LOCKED, finalise
// them in bulk, retry with backoff, wake on NOTIFY, and run periodic chores from the same loop.
export {
  defineQueue,
  errorMessage,
  PermanentJobError,
  type Queue,
  type QueueOptions,
  type ClaimedRow,
} from './define-queue.ts';
export { defineChore, type Chore, type ChoreContext, type ChoreOptions } from './chores.ts';
export { QueueRunner, type QueueRunnerOptions, type StopReport } from './runner.ts';
export { notifyQueue, QueueAnnouncer, QUEUE_CHANNEL, type SqlExecutor } from './wake.ts';
export { claimDue, queueDepth, releaseLeases, type ClaimedBatch } from './claim.ts';
export { underLease } from './lease-keeper.ts';
export { retryDelayMs, defaultBackoff, type BackoffOptions } from './backoff.ts';
export { queueMetrics, registerQueueDepthGauge, type QueueMetrics } from './metrics.ts';
export type {
  BatchContext,
  FinaliseItem,
  Finaliser,
  JobId,
  JobOutcome,
  Lane,
  QueueLogger,
  SqlFragment,
} from './types.ts';
export { WakeSignal } from './wake.ts';
