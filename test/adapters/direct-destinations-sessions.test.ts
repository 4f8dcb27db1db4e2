// The `direct` transport's pooled sessions per destination, as the SMTP sink sees them: several messages
// per session with RSET between them, QUIT at the end, and the connection limit per destination.
import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { registerDirectDeliveryMetrics } from '../../src/destinations/index.ts';
import { ManualClock } from '../../src/platform/clock.ts';
import {
  ADDRESSES,
  cachingDns,
  allClosedOn,
  close,
  connectionsOn,
  deliverAll,
  destinationOn,
  expectAllAccepted,
  IDLE_MS,
  sendOne,
  sink,
  transport,
  useDestinationsBed,
} from './direct-destinations-support.ts';

useDestinationsBed();

describe('pooled sessions per destination', () => {
  it('30 messages at once with a limit of 3: at most 3 connections, ≥ 10 messages each, every one ended with QUIT', async () => {
    const d = destinationOn(ADDRESSES[0]!, 'many');
    const clock = new ManualClock(new Date());
    const direct = transport({ maxConnections: 3, now: () => clock.now(), dns: cachingDns() });
    const recipients = Array.from({ length: 30 }, (_, i) => d.to(`r${i}`));
    const outcomes = await deliverAll([{ transport: direct, to: recipients }], clock);
    expectAllAccepted(outcomes, recipients);
    expect(sink.messages.map((m) => m.envelope.to[0]).sort()).toEqual([...recipients].sort());

    expect(sink.peakConnectionsByAddress().get(d.address)).toBeLessThanOrEqual(3);
    const used = connectionsOn(d.address);
    expect(used.length).toBeGreaterThanOrEqual(1);
    expect(used.length).toBeLessThanOrEqual(3);
    expect(used.reduce((sum, c) => sum + c.messages, 0)).toBe(30);
    expect(30 / used.length).toBeGreaterThanOrEqual(10);
    expect(used.every((c) => !c.refused)).toBe(true);
    const [stats] = direct.destinations();
    expect(stats).toMatchObject({ destination: d.host, messages: 30, backedOff: false });
    expect(stats!.sessions).toBe(used.length);
    // The same figures on /metrics, read from the transport when scraped.
    const registry = new Registry();
    registerDirectDeliveryMetrics(registry, direct);
    const metrics = await registry.metrics();
    expect(metrics).toContain(`herald_direct_messages_total{destination="${d.host}"} 30`);
    expect(metrics).toContain(`herald_direct_sessions_total{destination="${d.host}"} ${used.length}`);
    expect(metrics).toContain(`herald_direct_backed_off{destination="${d.host}"} 0`);
    expect(metrics).toMatch(/herald_direct_tls_total\{result="unverified"\} [1-9]/);
    // The domain's mail hosts were asked once and then answered from the cache; its MTA-STS record once.
    expect(metrics).toMatch(/herald_direct_dns_lookups_total\{result="hit"\} [1-9]/);
    expect(metrics).toMatch(/herald_direct_dns_lookups_total\{result="miss"\} [1-9]/);
    expect(metrics).toMatch(/herald_direct_dns_cache_entries [1-9]/);
    expect(metrics).toContain('herald_direct_mta_sts_lookups_total{kind="txt"} 1');

    await close(direct);
    await allClosedOn(d.address);
    expect(connectionsOn(d.address).map((c) => c.quit)).toEqual(used.map(() => true));
    expect(sink.openConnections).toBe(0);
  });

  it('counts the limit per destination: two domains on two addresses, each at most its limit', async () => {
    const a = destinationOn(ADDRESSES[1]!, 'left');
    const b = destinationOn(ADDRESSES[2]!, 'right');
    const clock = new ManualClock(new Date());
    const direct = transport({ maxConnections: 2, now: () => clock.now() });
    const recipients = Array.from({ length: 12 }, (_, i) => [a.to(`a${i}`), b.to(`b${i}`)]).flat();
    expectAllAccepted(await deliverAll([{ transport: direct, to: recipients }], clock), recipients);

    const peaks = sink.peakConnectionsByAddress();
    expect(peaks.get(a.address)).toBeGreaterThanOrEqual(1);
    expect(peaks.get(a.address)).toBeLessThanOrEqual(2);
    expect(peaks.get(b.address)).toBeGreaterThanOrEqual(1);
    expect(peaks.get(b.address)).toBeLessThanOrEqual(2);
    expect(connectionsOn(a.address).reduce((sum, c) => sum + c.messages, 0)).toBe(12);
    expect(connectionsOn(b.address).reduce((sum, c) => sum + c.messages, 0)).toBe(12);
    expect(
      direct
        .destinations()
        .map((s) => [s.destination, s.messages])
        .sort(),
    ).toEqual(
      [
        [a.host, 12],
        [b.host, 12],
      ].sort(),
    );

    await close(direct);
    await allClosedOn(a.address);
    await allClosedOn(b.address);
    expect([...connectionsOn(a.address), ...connectionsOn(b.address)].every((c) => c.quit)).toBe(true);
  });

  it('sends messages one after the other over one session (RSET between), and QUITs it after idleMs', async () => {
    const d = destinationOn(ADDRESSES[3]!, 'sequential');
    const direct = transport({ maxConnections: 5 });
    for (let i = 0; i < 5; i++) expect((await sendOne(direct, d.to(`s${i}`))).status).toBe('accepted');
    const [only, ...more] = connectionsOn(d.address);
    expect(more).toEqual([]);
    expect(only).toMatchObject({ messages: 5, refused: false });

    // Nothing more to send: the idle session is ended with QUIT, without waiting for close().
    await sink.waitFor(() => only!.closedAt !== null, 'the idle session closed', IDLE_MS + 5_000);
    expect(only!.quit).toBe(true);
    expect(direct.destinations()[0]).toMatchObject({ open: 0, sessions: 1, messages: 5 });

    // The next message opens a new session.
    expect((await sendOne(direct, d.to('after'))).status).toBe('accepted');
    expect(connectionsOn(d.address)).toHaveLength(2);
    await close(direct);
    await allClosedOn(d.address);
    expect(connectionsOn(d.address).every((c) => c.quit)).toBe(true);
  });
});
