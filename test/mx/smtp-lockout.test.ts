// A listener nobody can lock out (issues 23 and 41), spoken to over loopback from many source
// addresses (127.0.0.0/8 stands in for many networks): the limit per network, the short wait for a
// first command beside RFC 5321's idle timeout for clients that talk, the idle budget of a mail
// transaction (a dribble is not progress), and a full listener closing its idlest connection for a
// new one whatever its state, never one that waits for our reply.
import pino from 'pino';
import { Registry } from 'prom-client';
import { afterEach, describe, expect, it } from 'vitest';
import { startSmtpListener, type InboundMessage, type SmtpListener } from '../../src/mx/smtp-listener.ts';
import { RawClient, type Reply } from './raw-smtp-client.ts';

const OWNED = 'bounce+abc.0123456789abcdef@bounces.test';
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

async function start(
  registry: Registry,
  limits: NonNullable<Parameters<typeof startSmtpListener>[0]['limits']>,
  takeOver: () => Promise<void> = async () => {},
) {
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

/** Reads past the replies to what the client wrote until the one that closes it (421), or its end. */
async function readUntilClosing(client: RawClient): Promise<Reply> {
  for (;;) {
    const answer = await client.read();
    if (answer.code === 421 || answer.code <= 0) return answer;
  }
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

  it('never closes a connection waiting for our reply, not even past its budget', async () => {
    const registry = new Registry();
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const port = await start(registry, { maxClients: 2, transactionIdleMs: 500 }, () => held);
    const sender = await connect(port, '127.0.20.1');
    await sender.envelope('', [OWNED]);
    expect((await sender.command('DATA')).code).toBe(354);
    sender.socket.write('Subject: report\r\n\r\nbody\r\n.\r\n');
    await expect.poll(() => received.length).toBe(1);
    // Another opens a transaction behind it and stalls: its budget runs out, the sender's does not.
    const stalled = await connect(port, '127.0.21.1');
    await stalled.envelope('', []);
    expect((await readUntilClosing(stalled)).text).toMatch(/^421 4\.4\.2 .*Timeout/);
    // Full again: the newcomer after next closes the silent one, never the sender awaiting its 250.
    const silent = await greeted(port, '127.0.22.1');
    await greeted(port, '127.0.23.1');
    expect((await silent.read()).text).toMatch(/^421 .*Too busy/);
    release();
    expect((await sender.read()).code).toBe(250);
    expect(await metric(registry, 'herald_smtp_connections_closed_total', '{reason="transaction_timeout"}')).toBe(1);
    expect(await metric(registry, 'herald_smtp_connections_closed_total', '{reason="evicted_silent"}')).toBe(1);
  });
});

describe('open transactions (issue 41)', () => {
  it('a sender from a fresh address gets its 250 while stalled and dribbling transactions hold every place', async () => {
    const registry = new Registry();
    // A budget longer than the test: here the place is made by closing the idlest, whatever its state.
    const port = await start(registry, {
      maxClients: 50,
      maxConnectionsPerAddress: 2,
      maxConnectionsPerNetwork: 5,
      transactionIdleMs: 60_000,
    });
    // 10 networks, 5 connections each, 2 per address: 30 say MAIL FROM and go silent, 20 dribble DATA.
    const from = (i: number) => `127.0.${40 + Math.floor(i / 5)}.${1 + ((i % 5) >> 1)}`;
    const stalled = await Promise.all(
      Array.from({ length: 30 }, async (_, i) => {
        const client = await connect(port, from(i));
        await client.envelope('', []);
        return client;
      }),
    );
    await Promise.all(
      Array.from({ length: 20 }, async (_, i) => {
        const client = await connect(port, from(30 + i));
        await client.envelope('', [OWNED]);
        expect((await client.command('DATA')).code).toBe(354);
        dribble(client, 'Subject: slow\r\n\r\n', 'x', 200);
      }),
    );
    expect(await metric(registry, 'herald_smtp_connections_open', '')).toBe(50);

    const mta = await greeted(port, '127.0.99.1');
    expect((await mta.command('EHLO mx.example.org')).code).toBe(250);
    expect((await mta.command('MAIL FROM:<>')).code).toBe(250);
    expect((await mta.command(`RCPT TO:<${OWNED}>`)).code).toBe(250);
    expect((await mta.command('DATA')).code).toBe(354);
    expect((await mta.command('Subject: report\r\n\r\nbody\r\n.')).text).toMatch(/^250 /);
    expect(received.map((message) => message.remoteAddress)).toEqual(['127.0.99.1']);
    // Each newcomer closed one stalled transaction, the idlest; a second sender gets in the same way.
    const second = await greeted(port, '127.0.98.1');
    expect((await second.command('EHLO second.example.org')).code).toBe(250);
    for (const closed of stalled.slice(0, 2)) expect((await closed.read()).text).toMatch(/^421 .*Too busy/);
    expect(await metric(registry, 'herald_smtp_connections_closed_total', '{reason="evicted_transaction"}')).toBe(2);
    expect(await metric(registry, 'herald_smtp_connections_total', '{result="refused_full"}')).toBe(0);
    expect(await metric(registry, 'herald_smtp_connections_open', '')).toBe(50);
  });

  it('at the issue scale: 1,000 open transactions from 20 networks under the default limits', async () => {
    const registry = new Registry();
    // The default limits (1,000 places, 50 per network, 20 per address); the budget is kept out of it.
    const port = await start(registry, { transactionIdleMs: 300_000 });
    const from = (i: number) => `127.1.${Math.floor(i / 50)}.${1 + Math.floor((i % 50) / 20)}`;
    for (let batch = 0; batch < 1_000; batch += 100) {
      await Promise.all(
        Array.from({ length: 100 }, async (_, k) => {
          const i = batch + k;
          const client = await connect(port, from(i));
          await client.envelope('', i % 2 === 0 ? [] : [OWNED]);
          if (i % 2 === 0) return;
          expect((await client.command('DATA')).code).toBe(354);
          dribble(client, 'Subject: slow\r\n\r\n', 'x', 1_000);
        }),
      );
    }
    expect(await metric(registry, 'herald_smtp_connections_open', '')).toBe(1_000);
    const mta = await connect(port, '127.0.99.1');
    await mta.envelope('', [OWNED]);
    expect((await mta.command('DATA')).code).toBe(354);
    expect((await mta.command('Subject: report\r\n\r\nbody\r\n.')).text).toMatch(/^250 /);
    expect(received.map((message) => message.remoteAddress)).toEqual(['127.0.99.1']);
    expect(await metric(registry, 'herald_smtp_connections_closed_total', '{reason="evicted_transaction"}')).toBe(1);
  }, 120_000);

  it('closes a transaction stalled after MAIL FROM, after RCPT, kept up by NOOPs or dribbled, not a streaming one', async () => {
    const registry = new Registry();
    const transactionIdleMs = 1_500;
    const port = await start(registry, { transactionIdleMs, idleTimeoutMs: 60_000 });
    const started = Date.now();
    const afterMail = await connect(port, '127.0.30.1');
    await afterMail.envelope('', []);
    const afterRcpt = await connect(port, '127.0.30.2');
    await afterRcpt.envelope('', [OWNED]);
    const nooping = await connect(port, '127.0.30.3');
    await nooping.envelope('', []);
    dribble(nooping, '', 'NOOP\r\n', 150);
    const dribbling = await connect(port, '127.0.30.4');
    await dribbling.envelope('', [OWNED]);
    expect((await dribbling.command('DATA')).code).toBe(354);
    dribble(dribbling, 'Subject: slow\r\n\r\n', 'x', 100);
    // A sender streaming a large message, 4 KiB a quarter-second, for longer than the budget.
    const streaming = await connect(port, '127.0.30.5');
    await streaming.envelope('', [OWNED]);
    expect((await streaming.command('DATA')).code).toBe(354);
    dribble(streaming, 'Subject: large\r\n\r\n', `${'y'.repeat(78)}\r\n`.repeat(53), 250);
    // Between transactions RFC 5321's idle timeout applies, not the budget.
    const between = await greeted(port, '127.0.30.6');
    expect((await between.command('EHLO between.test')).code).toBe(250);

    for (const client of [afterMail, afterRcpt, nooping, dribbling]) {
      expect((await readUntilClosing(client)).text).toMatch(/^421 4\.4\.2 .*Timeout: no progress/);
    }
    expect(Date.now() - started).toBeGreaterThanOrEqual(transactionIdleMs - 20);
    // One more whole budget of streaming, measured by a transaction that stalls meanwhile.
    const late = await connect(port, '127.0.30.7');
    await late.envelope('', []);
    expect((await readUntilClosing(late)).code).toBe(421);
    stopDribbling(streaming);
    expect((await streaming.command('\r\n.')).text).toMatch(/^250 /);
    expect(received).toHaveLength(1);
    expect(received[0]!.raw.length).toBeGreaterThan(4 * 4096);
    expect((await between.command('NOOP')).code).toBe(250);
    expect(await metric(registry, 'herald_smtp_connections_closed_total', '{reason="transaction_timeout"}')).toBe(5);
    expect(await metric(registry, 'herald_smtp_connections_open', '')).toBe(2);
  });
});
