// What the delivery benchmarks share: a relay to the SMTP sink (its STARTTLS certificate is
// self-signed, as in test/emails/delivery-support.ts) and a worker delivering emails through it.
import { createMailTransport } from '../../src/adapters/mail-transport/index.ts';
import type { Config } from '../../src/config.ts';
import type { Deps } from '../../src/deps.ts';
import { emailDeliveryQueue } from '../../src/emails/delivery.ts';
import { sessionBounces } from '../../src/feedback/index.ts';
import { QueueRunner } from '../../src/queue/index.ts';

export function sinkRelay(deps: Pick<Deps, 'dns'>, mailDomain: string, sinkUrl: string) {
  return createMailTransport(
    { kind: 'smtp', url: sinkUrl },
    {
      dns: deps.dns,
      mxPort: 25,
      mailDomain,
      record: () => {
        throw new Error('not the log transport');
      },
      relayTls: { rejectUnauthorized: false },
      timeoutMs: 10_000,
    },
  );
}

/** A runner of the email delivery queue alone, through `transport`, on the deps' clock. */
export function emailDeliveryRunner(
  config: Pick<Config, 'publicUrl' | 'mailDomain'>,
  deps: Deps,
  transport: Deps['mailTransport'],
) {
  return new QueueRunner({
    database: deps.database,
    queues: [
      emailDeliveryQueue({
        secrets: deps.secrets,
        publicUrl: config.publicUrl,
        transport,
        mailDomain: config.mailDomain,
        bounces: sessionBounces,
      }),
    ],
    clock: deps.clock,
    pollMs: 50,
  });
}

/** A runner of the email delivery queue alone, relaying to the sink (close the transport after it stops). */
export function sinkDeliveryRunner(config: Config, deps: Deps, sinkUrl: string) {
  const transport = sinkRelay(deps, config.mailDomain, sinkUrl);
  return { runner: emailDeliveryRunner(config, deps, transport), transport };
}
