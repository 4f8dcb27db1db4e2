// The sms-delivery queue as the worker runs it, for tests that need queued messages handed over.
import { QueueRunner } from '../../src/queue/index.ts';
import { smsDeliveryQueue } from '../../src/sms/index.ts';
import type { TestApp } from './app.ts';

/** A runner of the sms-delivery queue with the app's provider and clock (not started). */
export function smsRunner(t: Pick<TestApp, 'deps' | 'clock'>): QueueRunner {
  return new QueueRunner({
    database: t.deps.database,
    queues: [smsDeliveryQueue({ provider: t.deps.smsProvider })],
    clock: t.clock,
    pollMs: 50,
  });
}

/** Runs the sms-delivery queue until nothing is due. */
export async function deliverDueSms(t: Pick<TestApp, 'deps' | 'clock'>): Promise<void> {
  const runner = smsRunner(t);
  await runner.start();
  try {
    runner.notify('sms-delivery');
    await runner.idle();
  } finally {
    await runner.stop();
  }
}
