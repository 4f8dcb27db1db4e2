// A listener nobody can lock out (issue 23), spoken to over loopback from many source addresses
// (127.0.0.0/8 stands in for many networks): the limit per network, the short wait for a first
// command beside RFC 5321's idle timeout for clients that talk, and a full listener closing its
// idlest connection for a new one, never one that is mid-transaction.
import pino from 'pino';
import { Registry } from 'prom-client';
import { afterEach, describe, expect, it } from 'vitest';
import { startSmtpListener, type InboundMessage, type SmtpListener } from '../../src/inbound/smtp-listener.ts';
import { RawClient } from './raw-smtp-client.ts';

const OWNED = 'bounce+abc.0123456789abcdef@bounces.test';
let listener: SmtpListener | null = null;
let clients: RawClient[] = [];
const received: InboundMessage[] = [];

afterEach(async () => {
  for (const client of clients) client.close();
  clients = [];
  await listener?.stop();
  listener = null;
  received.length = 0;
});

async function start(registry: Registry, limits: NonNullable<Parameters<typeof startSmtpListener>[0]['limits']>) {
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

async function metric(registry: Registry, name: string, labels: string): Promise<number> {
  const line = (await registry.metrics()).split('\n').find((l) => l.startsWith(`${name}${labels} `));
  return line === undefined ? 0 : Number(line.split(' ')[1]);
}

describe('per network', () => {
  it('admits the limit over a /24 whatever the addresses, refuses one more with 421, not the next /24', async () => {
    const registry = new Registry();
    const port = await start(registry, { maxConnectionsPerAddress: 2, maxConnectionsPerNetwork: 3 });
    await greeted(port, '127.0.5.1');
    await greeted(port, '127.0.5.1');
    await greeted(port, '127.0.5.2');
    const refused = await connect(port, '127.0.5.3');
    expect((await refused.read()).text).toMatch(/^421 .*your network/);
    await refused.closed;
    await greeted(port, '127.0.6.1');
    expect(await metric(registry, 'herald_smtp_connections_total', '{result="refused_network_concurrency"}')).toBe(1);
    expect(await metric(registry, 'herald_smtp_connections_total', '{result="accepted"}')).toBe(4);
  });

  it('refuses past the new connections per minute of a /24', async () => {
    const registry = new Registry();
    const port = await start(registry, { connectionsPerMinutePerAddress: 2, connectionsPerMinutePerNetwork: 3 });
    for (const from of ['127.0.7.1', '127.0.7.1', '127.0.7.2']) (await greeted(port, from)).close();
    const refused = await connect(port, '127.0.7.3');
    expect((await refused.read()).code).toBe(421);
    await greeted(port, '127.0.8.3');
    expect(await metric(registry, 'herald_smtp_connections_total', '{result="refused_network_rate"}')).toBe(1);
  });
});

describe('the wait for a first command', () => {
  it('closes a client that says nothing after the greeting with 421, and keeps one that talks', async () => {
    const registry = new Registry();
    const greetingTimeoutMs = 1_000;
    const port = await start(registry, { greetingTimeoutMs, idleTimeoutMs: 10_000 });
    const started = Date.now();
    const silent = await greeted(port, '127.0.9.1');
    const talking = await greeted(port, '127.0.9.2');
    // Just before the wait is over, a first command: from then on the idle timeout applies.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await talking.command('EHLO client.test')).code).toBe(250);
    const closing = await silent.read();
    expect(closing.text).toMatch(/^421 .*Timeout waiting for a command/);
    expect(Date.now() - started).toBeGreaterThanOrEqual(greetingTimeoutMs - 20);
    await silent.closed;
    // Well past the first command's wait, the talking client is still served.
    await new Promise((resolve) => setTimeout(resolve, greetingTimeoutMs));
    expect((await talking.command('NOOP')).code).toBe(250);
    expect(await metric(registry, 'herald_smtp_connections_closed_total', '{reason="greeting_timeout"}')).toBe(1);
    expect(await metric(registry, 'herald_smtp_connections_open', '')).toBe(1);
  });
});

describe('a full listener', () => {
  it('admits up to maxClients; one more closes the longest silent connection, then the idlest talker', async () => {
    const registry = new Registry();
    const port = await start(registry, { maxClients: 3 });
    const first = await greeted(port, '127.0.10.1');
    const second = await greeted(port, '127.0.11.1');
    const third = await greeted(port, '127.0.12.1');
    expect((await first.command('EHLO first.test')).code).toBe(250);
    // Full: the fourth gets in, the longest silent connection (second) is told why and closed.
    const fourth = await greeted(port, '127.0.13.1');
    expect((await second.read()).text).toMatch(/^421 .*Too busy/);
    await second.closed;
    const fifth = await greeted(port, '127.0.14.1');
    expect((await third.read()).code).toBe(421);
    expect((await fourth.command('EHLO fourth.test')).code).toBe(250);
    expect((await fifth.command('EHLO fifth.test')).code).toBe(250);
    // Nobody silent is left: the talker idle longest (first) makes room.
    const sixth = await greeted(port, '127.0.15.1');
    expect((await first.read()).code).toBe(421);
    expect((await fourth.command('NOOP')).code).toBe(250);
    expect((await sixth.command('NOOP')).code).toBe(250);
    expect(await metric(registry, 'herald_smtp_connections_closed_total', '{reason="evicted_silent"}')).toBe(2);
    expect(await metric(registry, 'herald_smtp_connections_closed_total', '{reason="evicted_idle"}')).toBe(1);
    expect(await metric(registry, 'herald_smtp_connections_open', '')).toBe(3);
  });

  it('never closes a sender mid-transaction: refuses the newcomer instead, and makes room once it is done', async () => {
    const registry = new Registry();
    const port = await start(registry, { maxClients: 2 });
    const senders = [await greeted(port, '127.0.20.1'), await greeted(port, '127.0.21.1')];
    for (const sender of senders) {
      expect((await sender.command('EHLO sender.test')).code).toBe(250);
      expect((await sender.command('MAIL FROM:<>')).code).toBe(250);
    }
    const refused = await connect(port, '127.0.22.1');
    expect((await refused.read()).text).toMatch(/^421 .*Too busy/);
    await refused.closed;
    expect(await metric(registry, 'herald_smtp_connections_total', '{result="refused_full"}')).toBe(1);
    // Both transactions go on and end with 250.
    for (const sender of senders) {
      expect((await sender.command(`RCPT TO:<${OWNED}>`)).code).toBe(250);
      expect((await sender.command('DATA')).code).toBe(354);
      expect((await sender.command('Subject: report\r\n\r\nbody\r\n.')).code).toBe(250);
    }
    expect(received).toHaveLength(2);
    // Between transactions they are idle: a newcomer now gets in.
    await greeted(port, '127.0.22.1');
    expect((await senders[0]!.read()).code).toBe(421);
    expect((await senders[1]!.command('NOOP')).code).toBe(250);
  });
});
