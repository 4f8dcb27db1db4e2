// Shared by the lockout tests (smtp-lockout.test.ts, smtp-open-transactions.test.ts): a listener per
// test with the given limits, clients connected from chosen loopback addresses, and clients that
// dribble bytes to look busy; all closed after each test.
import pino from 'pino';
import type { Registry } from 'prom-client';
import { afterEach, expect } from 'vitest';
import { startSmtpListener, type InboundMessage, type SmtpListener } from '../../src/mx/smtp-listener.ts';
import { OWNED } from './listener-support.ts';
import { RawClient, type Reply } from './raw-smtp-client.ts';

type Limits = NonNullable<Parameters<typeof startSmtpListener>[0]['limits']>;

/** Registers, in the calling file, the clean-up after each test (vitest runs files with isolate: false). */
export function lockoutTestBed() {
  let listener: SmtpListener | null = null;
  let clients: RawClient[] = [];
  const received: InboundMessage[] = [];
  const dribblers = new Map<RawClient, NodeJS.Timeout>();

  afterEach(async () => {
    for (const timer of dribblers.values()) clearInterval(timer);
    dribblers.clear();
    for (const client of clients) client.close();
    clients = [];
    await listener?.stop();
    listener = null;
    received.length = 0;
  });

  /** Starts the test's listener (it owns OWNED); `takeOver` is awaited before each message's 250. */
  async function start(registry: Registry, limits: Limits, takeOver: () => Promise<void> = async () => {}) {
    listener = await startSmtpListener({
      port: 0,
      host: '127.0.0.1',
      tls: null,
      logger: pino({ level: 'silent' }),
      hostname: 'mx.herald.test',
      metrics: registry,
      limits: { closeTimeoutMs: 200, ...limits },
      acceptsRecipient: (address) => address === OWNED,
      onMessage: async (message) => {
        received.push(message);
        await takeOver();
      },
    });
    return listener.port;
  }

  async function connect(port: number, from: string): Promise<RawClient> {
    const client = await RawClient.connect(port, from);
    clients.push(client);
    return client;
  }

  /** Connects from `from` and expects the greeting. */
  async function greeted(port: number, from: string): Promise<RawClient> {
    const client = await connect(port, from);
    expect((await client.read()).code).toBe(220);
    return client;
  }

  /** Writes `first`, then `unit` every `everyMs` until stopDribbling() (or the end of the test). */
  function dribble(client: RawClient, first: string, unit: string, everyMs: number): void {
    client.socket.write(first);
    dribblers.set(
      client,
      setInterval(() => client.socket.write(unit), everyMs),
    );
  }

  function stopDribbling(client: RawClient): void {
    clearInterval(dribblers.get(client));
    dribblers.delete(client);
  }

  return { received, start, connect, greeted, dribble, stopDribbling };
}

/** Reads past the replies to what the client wrote until the one that closes it (421), or its end. */
export async function readUntilClosing(client: RawClient): Promise<Reply> {
  for (;;) {
    const answer = await client.read();
    if (answer.code === 421 || answer.code <= 0) return answer;
  }
}
