// The campaigns benchmark's isolation rounds (bench/campaigns.ts): transactional sends of another
// team at a steady rate, each timed from its POST until the sink accepted it, with the delivery
// worker running the transactional lane alone (no campaign delivering) or both lanes (the campaign's
// queued emails delivering at the same time, each lane through its own relay connections), as
// `herald start` runs them.
import type { FastifyInstance } from 'fastify';
import type { MailTransport } from '../../src/adapters/mail-transport/index.ts';
import { emailDeliveryLanes, emailDeliveryQueue, type DeliveryDeps } from '../../src/emails/index.ts';
import type { Deps } from '../../src/deps.ts';
import { QueueRunner } from '../../src/queue/index.ts';

export interface IsolationRound {
  app: FastifyInstance;
  deps: Deps;
  authorization: string;
  from: string;
  delivery: DeliveryDeps;
  /** The bulk lane's transport: connections of its own, as buildDeps makes it. */
  bulkTransport: MailTransport;
  arrivals: Map<string, number>;
  /** With the bulk lane: the campaign delivers meanwhile. */
  campaign: boolean;
  round: number;
  sends: number;
  perSecond: number;
}

/** Each transactional email's milliseconds from POST to accepted by the sink. */
export async function isolationRound(o: IsolationRound): Promise<number[]> {
  const queues = o.campaign ? emailDeliveryLanes(o.delivery, o.bulkTransport) : [emailDeliveryQueue(o.delivery)];
  const runner = new QueueRunner({ database: o.deps.database, queues, pollMs: 50 });
  await runner.start();
  const postedAt = new Map<string, number>();
  try {
    // The campaign's lane gets going before the clock starts.
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const started = performance.now();
    const posts: Promise<void>[] = [];
    for (let i = 0; i < o.sends; i++) {
      const due = started + (i * 1000) / o.perSecond;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      const to = `txn-${o.round}-${i}@example.test`;
      postedAt.set(to, Date.now());
      posts.push(
        o.app
          .inject({
            method: 'POST',
            url: '/api/v1/emails',
            headers: { authorization: o.authorization },
            payload: {
              from: o.from,
              to,
              subject: 'Reset your password',
              html: '<p>Your link: https://example.test/r</p>',
            },
          })
          .then((response) => {
            if (response.statusCode !== 200) throw new Error(`send answered ${response.statusCode}: ${response.body}`);
          }),
      );
    }
    await Promise.all(posts);
    const deadline = Date.now() + 120_000;
    while ([...postedAt.keys()].some((to) => !o.arrivals.has(to))) {
      if (Date.now() > deadline) throw new Error(`round ${o.round}: transactional emails missing at the sink`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  } finally {
    await runner.stop();
  }
  return [...postedAt].map(([to, at]) => o.arrivals.get(to)! - at);
}
