// The inbound SMTP listener's limits, each at its edge and one past it, over loopback: message size,
// recipients, messages and commands per connection, and connections per address (at once and per minute).
import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { listenerTestBed, metric, OWNED, OWNED_TOO, waitForOpenConnections } from './listener-support.ts';
import { RawClient } from './raw-smtp-client.ts';

const { received, start } = listenerTestBed();

describe('size limit', () => {
  it('advertises SIZE, answers an over-size message 552 and hands nothing on', async () => {
    const registry = new Registry();
    const { port } = await start({ maxMessageBytes: 1000, metrics: registry });
    const client = await RawClient.connect(port);
    expect((await client.read()).code).toBe(220);
    expect((await client.command('EHLO client.test')).text).toContain('SIZE 1000');
    // Declared too big: refused before any byte of it is sent.
    expect((await client.command('MAIL FROM:<a@remote.test> SIZE=1001')).code).toBe(552);
    expect((await client.command('MAIL FROM:<a@remote.test>')).code).toBe(250);
    expect((await client.command(`RCPT TO:<${OWNED}>`)).code).toBe(250);
    expect((await client.command('DATA')).code).toBe(354);
    expect((await client.command(`Subject: big\r\n\r\n${'y'.repeat(78)}\r\n`.repeat(20) + '.')).text).toMatch(
      /^552 5\.3\.4 /,
    );
    // At the limit exactly, it is taken.
    expect((await client.command('MAIL FROM:<a@remote.test>')).code).toBe(250);
    expect((await client.command(`RCPT TO:<${OWNED}>`)).code).toBe(250);
    expect((await client.command('DATA')).code).toBe(354);
    const body = `Subject: ok\r\n\r\n${'z'.repeat(1000 - 17)}\r\n`;
    expect(body.length).toBe(1000);
    expect((await client.command(`${body}.`)).code).toBe(250);
    client.close();
    expect(received).toHaveLength(1);
    expect(received[0]!.raw.length).toBe(1000);
    expect(await metric(registry, 'herald_smtp_messages_refused_total', '{reason="size"}')).toBe(1);
  });
});

describe('per-connection limits', () => {
  it('answers 452 past the recipients of one message', async () => {
    const { port } = await start({ limits: { maxRecipientsPerMessage: 1 } });
    const client = await RawClient.connect(port);
    await client.envelope('a@remote.test', [OWNED]);
    expect((await client.command(`RCPT TO:<${OWNED_TOO}>`)).code).toBe(452);
    client.close();
  });

  it('closes with 421 past the messages of one connection', async () => {
    const { port } = await start({ limits: { maxMessagesPerConnection: 1 } });
    const client = await RawClient.connect(port);
    await client.envelope('a@remote.test', [OWNED]);
    expect((await client.command('DATA')).code).toBe(354);
    expect((await client.command('Subject: one\r\n\r\n.')).code).toBe(250);
    expect((await client.command('MAIL FROM:<a@remote.test>')).code).toBe(421);
    await client.closed;
    expect(received).toHaveLength(1);
  });

  it('closes with 421 past the commands of one connection, NOOPs included', async () => {
    const { port } = await start({ limits: { maxCommandsPerConnection: 5 } });
    const client = await RawClient.connect(port);
    expect((await client.read()).code).toBe(220);
    expect((await client.command('EHLO client.test')).code).toBe(250);
    for (let i = 0; i < 4; i++) expect((await client.command('NOOP')).code).toBe(250);
    expect((await client.command('NOOP')).code).toBe(421);
    await client.closed;
  });
});

describe('per-address limits', () => {
  it('refuses the connection past the concurrent limit with 421, and admits again once one closes', async () => {
    const registry = new Registry();
    const { port } = await start({ metrics: registry, limits: { maxConnectionsPerAddress: 2 } });
    const first = await RawClient.connect(port);
    const second = await RawClient.connect(port);
    expect((await first.read()).code).toBe(220);
    expect((await second.read()).code).toBe(220);
    const third = await RawClient.connect(port);
    const refused = await third.read();
    expect(refused.code).toBe(421);
    await third.closed;
    first.close();
    await waitForOpenConnections(registry, 1);
    const fourth = await RawClient.connect(port);
    expect((await fourth.read()).code).toBe(220);
    second.close();
    fourth.close();
    expect(await metric(registry, 'herald_smtp_connections_total', '{result="refused_concurrency"}')).toBe(1);
  });

  it('refuses past the connections per minute with 421 until the minute has passed', async () => {
    let now = Date.parse('2026-01-01T00:00:10Z');
    const { port } = await start({ now: () => now, limits: { connectionsPerMinutePerAddress: 3 } });
    for (let i = 0; i < 3; i++) {
      const client = await RawClient.connect(port);
      expect((await client.read()).code).toBe(220);
      client.close();
    }
    const refused = await RawClient.connect(port);
    expect((await refused.read()).code).toBe(421);
    now += 2 * 60_000;
    const later = await RawClient.connect(port);
    expect((await later.read()).code).toBe(220);
    later.close();
  });
});
