// The campaigns benchmark's SMTP sink, in its own process on core 1 (bench/campaigns.ts starts itself
// again with `sink`): accepts every message (smtp-server's own STARTTLS certificate), keeps none,
// and tells the parent when each transactional message (a recipient starting `txn-`) was accepted.
// Counts the others. The times are Date.now() of both processes: one machine, one clock.
import type { ChildProcess } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { startPinnedChild } from '../measure.ts';

type FromSink = { url: string } | { accepted: { to: string; at: number }[] } | { others: number };

export async function sinkMain(): Promise<void> {
  const { SMTPServer } = await import('smtp-server');
  let others = 0;
  let pending: { to: string; at: number }[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['AUTH'],
    logger: false,
    size: 10 * 1024 * 1024,
    onData(stream, session, callback) {
      stream.on('data', () => {});
      stream.on('end', () => {
        const at = Date.now();
        for (const rcpt of session.envelope.rcptTo) {
          if (rcpt.address.startsWith('txn-')) pending.push({ to: rcpt.address, at });
          else others++;
        }
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  // Reported in batches: an IPC message per email would cost the sink more than the SMTP session.
  setInterval(() => {
    if (pending.length === 0) return;
    process.send!({ accepted: pending } satisfies FromSink);
    pending = [];
  }, 20).unref();
  process.on('message', () => process.send!({ others } satisfies FromSink));
  process.send!({ url: `smtp://127.0.0.1:${(server.server.address() as AddressInfo).port}` } satisfies FromSink);
}

/** The sink's process and what it reports: the arrival time of each transactional message. */
export async function startSink(benchFile: string) {
  const { child, info } = await startPinnedChild<{ url: string }>(benchFile, ['sink']);
  const arrivals = new Map<string, number>();
  child.on('message', (message: FromSink) => {
    if ('accepted' in message) for (const { to, at } of message.accepted) arrivals.set(to, at);
  });
  /** How many other messages (the campaign's) the sink has accepted so far. */
  const others = (): Promise<number> =>
    new Promise((resolve) => {
      const listener = (message: FromSink) => {
        if (!('others' in message)) return;
        (child as ChildProcess).off('message', listener);
        resolve(message.others);
      };
      child.on('message', listener);
      child.send({});
    });
  return { child, url: info.url, arrivals, others };
}
