// The email delivery benchmark's SMTP sink (test/support/smtp-sink.ts), run in its own process on
// core 1 (bench/email-delivery.ts starts itself again with `sink`), and the parent's side of its IPC.
import type { ChildProcess } from 'node:child_process';
import { startPinnedChild } from '../measure.ts';

export interface DkimKeyInfo {
  domain: string;
  selector: string;
  txt: string;
}
type ToSink = { expect: number; key: DkimKeyInfo };
type FromSink = { url: string } | { received: number } | { dkim: string[] };

export async function sinkMain(): Promise<void> {
  const { SmtpSink, verifyDkim } = await import('../../test/support/smtp-sink.ts');
  const sink = await SmtpSink.start();
  const send = (message: FromSink) => process.send!(message);
  process.on('message', (message: ToSink) => {
    sink.reset();
    const timer = setInterval(() => {
      if (sink.messages.length < message.expect) return;
      clearInterval(timer);
      send({ received: sink.messages.length });
      // After the clock stopped: the first and last messages carry a signature that verifies.
      const key = { ...message.key, privateKeyPem: '' };
      void Promise.all([verifyDkim(sink.messages[0]!.raw, key), verifyDkim(sink.messages.at(-1)!.raw, key)]).then(
        (results) => send({ dkim: results.flat() }),
      );
    }, 2);
  });
  send({ url: sink.url });
}

/** Starts `benchFile` again as the sink's process, pinned to core 1. */
export async function startSink(benchFile: string): Promise<{ child: ChildProcess; url: string }> {
  const { child, info } = await startPinnedChild<{ url: string }>(benchFile, ['sink']);
  return { child, url: info.url };
}

/** Tells the sink to expect `count` messages; resolves with the time they had all arrived and the DKIM results. */
export function expectMessages(
  child: ChildProcess,
  count: number,
  key: DkimKeyInfo,
): { received: Promise<number>; dkim: Promise<string[]> } {
  let resolveReceived!: (at: number) => void;
  let resolveDkim!: (results: string[]) => void;
  const received = new Promise<number>((resolve) => (resolveReceived = resolve));
  const dkim = new Promise<string[]>((resolve) => (resolveDkim = resolve));
  const listener = (message: FromSink) => {
    if ('received' in message) resolveReceived(performance.now());
    if ('dkim' in message) {
      child.off('message', listener);
      resolveDkim(message.dkim);
    }
  };
  child.on('message', listener);
  child.send({ expect: count, key } satisfies ToSink);
  return { received, dkim };
}
