// Open mail transactions cannot lock the listener out (issue 41), over loopback from many source
// addresses: a sender from a fresh address gets in while stalled and dribbling transactions hold every
// place, at the scale too, and the idle budget of a transaction (a dribble is not progress)
// closes the stalled ones, never one that streams.
import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { lockoutTestBed, readUntilClosing } from './lockout-support.ts';
import { metric, OWNED } from './listener-support.ts';

const { received, start, connect, greeted, dribble, stopDribbling } = lockoutTestBed();

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
