// What a listener spooled, acted on by the same process right after the 250, from memory: the
// message is at hand, so nothing is read back from the spool and no claim rewrites its row (for a
// ~1 KB bounce, the claim's new row version was the largest piece of WAL a report cost, and every
// spool INSERT's commit waited for it to be flushed). Messages gather in a BatchWriter (one batch at
// a time, a short pause while busy) and each batch is recorded in one transaction that deletes its
// rows if no queue claimed them meanwhile (record-spooled.ts).
//
// Whatever this does not finish stays in the spool and becomes the inbound-messages queue's when due
// (spool.ts SPOOL_HANDOFF_MS): a message that fails here (after its batch failed, alone), one that
// arrives while the backlog is full, or the backlog of a process that died or was stopped.
import type { Logger } from 'pino';
import { Counter, Gauge, type Registry } from 'prom-client';
import { countFeedback, feedbackCounter } from '../feedback/index.ts';
import { BatchWriter } from '../platform/batch-writer.ts';
import { recordSpooled, tallyOutcomes, type RecordSpooledDeps, type SpooledMessage } from './record-spooled.ts';

interface SpoolProcessorDeps extends RecordSpooledDeps {
  metrics: Registry;
  logger: Logger;
}

export interface SpoolProcessor {
  /** Hands a spooled message over; false when the backlog is full (the queue will take it when due). */
  take(message: SpooledMessage): boolean;
  /** Resolves when every message taken so far has been recorded or left to the queue. */
  drained(): Promise<void>;
}

export interface SpoolProcessorLimits {
  /** Messages per transaction. */
  maxBatch: number;
  /** A busy processor's pause between batches, so that more share one transaction. */
  gatherMs: number;
  /** Messages waiting in memory, and their bytes, past which new ones are left to the queue. */
  maxBacklog: number;
  maxBacklogBytes: number;
}

export const defaultSpoolProcessorLimits: SpoolProcessorLimits = {
  maxBatch: 200,
  // Fewer, larger transactions cost the spool's INSERTs less (bench/smtp-feedback.ts), and a report
  // waits 50 ms at most.
  gatherMs: 50,
  maxBacklog: 2_000,
  // Messages are up to 10 MiB each (the listener's SIZE): the count alone would not bound memory.
  maxBacklogBytes: 64 * 1024 * 1024,
};

/**
 * herald_inbound_backlog: messages this process spooled and has yet to record (the queue's depth
 * counts spooled rows only once due). herald_inbound_left_to_queue_total{reason}: messages it left
 * to the queue, `backlog_full` or `failed`. Looked up before being created: tests share a registry.
 */
function processorMetrics(registry: Registry, backlog: () => number) {
  const existing = <T>(name: string): T | undefined => registry.getSingleMetric(name) as T | undefined;
  const gauge =
    existing<Gauge>('herald_inbound_backlog') ??
    new Gauge({
      name: 'herald_inbound_backlog',
      help: 'Inbound messages this process spooled and has yet to record',
      registers: [registry],
    });
  // The latest processor of the registry answers (one per process outside tests).
  (gauge as Gauge & { collect?: () => void }).collect = () => gauge.set(backlog());
  return (
    existing<Counter<'reason'>>('herald_inbound_left_to_queue_total') ??
    new Counter({
      name: 'herald_inbound_left_to_queue_total',
      help: 'Inbound messages a listener left to the inbound-messages queue, by reason (backlog_full, failed)',
      labelNames: ['reason'],
      registers: [registry],
    })
  );
}

export function createSpoolProcessor(
  deps: SpoolProcessorDeps,
  limits: SpoolProcessorLimits = defaultSpoolProcessorLimits,
): SpoolProcessor {
  const counter = feedbackCounter(deps.metrics);
  const logger = deps.logger.child({ part: 'inbound' });
  let backlogBytes = 0;
  const release = (batch: readonly SpooledMessage[]) => {
    for (const m of batch) backlogBytes -= m.raw.length;
  };

  const record = async (batch: SpooledMessage[]): Promise<void> => {
    try {
      const recorded = await recordSpooled(deps, batch, { kind: 'listener' });
      recorded.feedback.forEach((outcome) => countFeedback(counter, outcome));
      logger.info({ messages: batch.length, ...tallyOutcomes(recorded) }, 'inbound messages processed');
      for (const { id, error, permanent } of recorded.unreadable) {
        // Kept as failed by the recording transaction, or (a parse out of time) the queue's to retry.
        if (permanent) logger.warn({ inboundMessageId: id, error }, 'inbound message unreadable; kept as failed');
        else leftToQueue.inc({ reason: 'failed' });
      }
      release(batch);
    } catch (error) {
      // A failed batch comes back from the BatchWriter one message at a time: those are released
      // whatever happens, the batch itself only through them.
      if (batch.length === 1) release(batch);
      throw error;
    }
  };
  const writer = new BatchWriter<SpooledMessage>({
    write: record,
    onError: (error, message) => {
      leftToQueue.inc({ reason: 'failed' });
      logger.warn(
        { err: error, inboundMessageId: message.id },
        'inbound message not processed; left for the inbound-messages queue',
      );
    },
    maxBatch: limits.maxBatch,
    gatherMs: limits.gatherMs,
    // take() keeps the backlog at most this, so add() never hands back a promise to wait on.
    limit: limits.maxBacklog,
  });

  const leftToQueue = processorMetrics(deps.metrics, () => writer.backlog);

  return {
    take(message) {
      if (writer.backlog >= limits.maxBacklog || backlogBytes + message.raw.length > limits.maxBacklogBytes) {
        leftToQueue.inc({ reason: 'backlog_full' });
        return false;
      }
      backlogBytes += message.raw.length;
      writer.add(message);
      return true;
    },
    drained: () => writer.drained(),
  };
}
