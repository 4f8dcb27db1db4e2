// The direct delivery benchmark's SMTP sink and DNS server, run in their own process on core 1
// (bench/direct-delivery.ts starts itself again with `sink`), and the parent's side of its IPC.
import type { ChildProcess } from 'node:child_process';
import { DEADLINE_S, DESTINATIONS, EMAILS } from './settings.ts';

export interface DkimKeyInfo {
  domain: string;
  selector: string;
  txt: string;
}
export interface SinkReport {
  connections: number;
  /** Connections still open when the report was asked for (after a grace period). */
  stillOpen: number;
  quit: number;
  messagesPerConnection: number;
  peakByDestination: Record<string, number>;
  dkim: string[];
}
type ToSink = { expect: number } | { report: DkimKeyInfo };
type FromSink = { port: number; dns: string } | { received: number } | { report: SinkReport };

export async function sinkMain(): Promise<void> {
  const { SmtpSink, verifyDkim } = await import('../../test/support/smtp-sink.ts');
  const { TestDnsServer } = await import('../../test/support/dns-server.ts');
  const dns = await TestDnsServer.start();
  for (const d of DESTINATIONS) {
    dns.setMx(d.domain, { exchange: d.mx, priority: 10 });
    dns.set(d.mx, 'A', [{ type: 'A', address: d.address }]);
  }
  const sink = await SmtpSink.start({ hosts: DESTINATIONS.map((d) => d.address) });
  const send = (message: FromSink) => process.send!(message);
  process.on('message', (message: ToSink) => {
    if ('expect' in message) {
      sink.reset();
      const timer = setInterval(() => {
        if (sink.messages.length < message.expect) return;
        clearInterval(timer);
        send({ received: sink.messages.length });
      }, 2);
      return;
    }
    // After the clock stopped and the sender closed: its sessions end, then the figures.
    void sink
      .waitFor((s) => s.openConnections === 0, 'every connection closed', 10_000)
      .catch(() => {})
      .then(async () => {
        const key = { ...message.report, privateKeyPem: '' };
        const dkim = await Promise.all([
          verifyDkim(sink.messages[0]!.raw, key),
          verifyDkim(sink.messages.at(-1)!.raw, key),
        ]);
        const sessions = sink.connections.filter((c) => !c.refused);
        send({
          report: {
            connections: sessions.length,
            stillOpen: sink.openConnections,
            quit: sessions.filter((c) => c.quit).length,
            messagesPerConnection: sink.messagesPerConnection(),
            peakByDestination: Object.fromEntries(sink.peakConnectionsByAddress()),
            dkim: dkim.flat(),
          },
        });
      });
  });
  send({ port: sink.port, dns: dns.address });
}

/** Resolves with the next message from the sink that has `key`. */
function fromSink<K extends 'received' | 'report'>(
  child: ChildProcess,
  key: K,
): Promise<Extract<FromSink, Record<K, unknown>>> {
  return new Promise((resolve) => {
    const listener = (message: FromSink) => {
      if (!(key in message)) return;
      child.off('message', listener);
      resolve(message as Extract<FromSink, Record<K, unknown>>);
    };
    child.on('message', listener);
  });
}

export interface RunFigures {
  seconds: number;
  sink: SinkReport;
}

/** Times `work` until the sink has accepted EMAILS messages, then `finish`, then the sink's figures. */
export type Timed = (run: string, work: () => Promise<void>, finish: () => Promise<void>) => Promise<RunFigures>;

/** The runs' timer, on the sink in `child`, which checks the DKIM signatures against `dkimKey`. */
export function runTimer(child: ChildProcess, dkimKey: DkimKeyInfo): Timed {
  return async (run, work, finish) => {
    const received = fromSink(child, 'received');
    child.send({ expect: EMAILS } satisfies ToSink);
    const started = performance.now();
    const working = work();
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`${run}: the sink did not get ${EMAILS} messages within ${DEADLINE_S} s`)),
        DEADLINE_S * 1000,
      );
    });
    // A failing sender fails the run instead of leaving it waiting for the sink.
    await Promise.race([received, working.then(() => received), deadline]).finally(() => clearTimeout(timer));
    const seconds = (performance.now() - started) / 1000;
    await working;
    await finish();
    const report = fromSink(child, 'report');
    child.send({ report: dkimKey } satisfies ToSink);
    return { seconds, sink: (await report).report };
  };
}
