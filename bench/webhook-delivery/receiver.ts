// The webhook delivery benchmark's HTTPS receivers and loopback DNS server, run in their own process
// on core 1 (bench/webhook-delivery.ts starts itself again with `receiver`), and the parent's side of
// their IPC.
import type { ChildProcess } from 'node:child_process';

/** The webhooks' host name, which the loopback DNS server resolves to 127.0.0.1. */
export const HOST = 'bench.hooks.test';

export type ToChild = { expect: number; mode: 'up' | 'down'; server: 'fast' | 'recovery' } | { report: true };
export type FromChild =
  | { fast: number; recovery: number; dns: string; caFile: string }
  | { received: number }
  | { unique: number; ok: number; total: number };

export async function receiverMain(): Promise<void> {
  const { HttpsReceiver } = await import('../../test/support/https-receiver.ts');
  const { TestDnsServer } = await import('../../test/support/dns-server.ts');
  const dns = await TestDnsServer.start();
  dns.set(HOST, 'A', [{ type: 'A', address: '127.0.0.1' }]);
  const fast = await HttpsReceiver.start({ record: false });
  const recovery = await HttpsReceiver.start();
  const send = (message: FromChild) => process.send!(message);
  process.on('message', (message: ToChild) => {
    if ('report' in message) {
      const ok = recovery.requests.filter((r) => r.receivedAt.getTime() >= upSince);
      send({
        unique: new Set(ok.map((r) => r.headers['webhook-id'])).size,
        ok: ok.length,
        total: recovery.requests.length,
      });
      return;
    }
    const receiver = message.server === 'fast' ? fast : recovery;
    receiver.respondWith(message.mode === 'up' ? { status: 200 } : { status: 503 });
    if (message.mode === 'up') upSince = Date.now();
    const start = receiver.count;
    const timer = setInterval(() => {
      if (receiver.count - start < message.expect) return;
      clearInterval(timer);
      send({ received: receiver.count - start });
    }, 1);
  });
  let upSince = 0;
  send({ fast: fast.port, recovery: recovery.port, dns: dns.address, caFile: fast.caFile });
}

export function waitFor(child: ChildProcess, command: ToChild): Promise<FromChild> {
  return new Promise((resolve) => {
    const listener = (message: FromChild) => {
      child.off('message', listener);
      resolve(message);
    };
    child.on('message', listener);
    child.send(command);
  });
}
