// A listener nobody can lock out (issues 23 and 41), spoken to over loopback from many source
// addresses (127.0.0.0/8 stands in for many networks): the limit per network, the short wait for a
// first command beside RFC 5321's idle timeout for clients that talk, and a full listener closing its
// idlest connection for a new one whatever its state, never one that waits for our reply. The idle
// budget of a mail transaction is in smtp-open-transactions.test.ts.
import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { lockoutTestBed, readUntilClosing } from './lockout-support.ts';
import { metric, OWNED } from './listener-support.ts';

const { received, start, connect, greeted } = lockoutTestBed();

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
