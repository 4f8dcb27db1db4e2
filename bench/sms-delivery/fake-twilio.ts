// The SMS delivery benchmark's fake Twilio (test/support/fake-twilio.ts), run in its own process on
// core 1 (bench/sms-delivery.ts starts itself again with `fake`), and the parent's side of its IPC.
import type { ChildProcess } from 'node:child_process';
import { SID, TOKEN } from './settings.ts';

type ToFake = { expect: number };
type FromFake = { url: string } | { received: number };

export async function fakeMain(): Promise<void> {
  const { FakeTwilio } = await import('../../test/support/fake-twilio.ts');
  const twilio = await FakeTwilio.start({ accountSid: SID, authToken: TOKEN });
  const send = (message: FromFake) => process.send!(message);
  process.on('message', (message: ToFake) => {
    const start = twilio.messages.length;
    const timer = setInterval(() => {
      if (twilio.messages.length - start < message.expect) return;
      clearInterval(timer);
      send({ received: twilio.messages.length - start });
    }, 2);
  });
  send({ url: twilio.url });
}

export function expectMessages(child: ChildProcess, count: number): Promise<number> {
  return new Promise((resolve) => {
    const onMessage = (message: FromFake) => {
      if (!('received' in message)) return;
      child.off('message', onMessage);
      resolve(message.received);
    };
    child.on('message', onMessage);
    child.send({ expect: count } satisfies ToFake);
  });
}
