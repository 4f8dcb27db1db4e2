// The `direct` transport's destinations, as a receiving MTA sees them (the SMTP sink on several
// loopback addresses, one per destination, their MX records on the loopback DNS server): several
// messages per pooled session with RSET between them and QUIT at the end, the per-destination
// connection limit (per address, and across two processes through the database's ledger), and the
// back-off of a destination that refuses connections, stalls or answers "too fast", while a
// greylisting answer or a refused recipient leave the destination alone.
import { randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createDnsResolver, type DnsResolver } from '../../src/adapters/dns.ts';
import {
  createDirectTransport,
  type DestinationBackoff,
  type DirectTransport,
  type DirectTransportOptions,
  type RecipientOutcome,
} from '../../src/adapters/mail-transport/index.ts';
import { Registry } from 'prom-client';
import {
  databaseDestinationLedger,
  registerDirectDeliveryMetrics,
  SLOT_LEASE_MS,
} from '../../src/destinations/index.ts';
import { ManualClock } from '../../src/platform/clock.ts';
import { getTestDb } from '../support/db.ts';
import { TestDnsServer } from '../support/dns-server.ts';
import { SmtpSink, type SinkConnection } from '../support/smtp-sink.ts';

const FROM = 'bounce+dd@send.herald.test';
/** One sink address per test, so that what one test left open never counts in another. */
const ADDRESSES = Array.from({ length: 13 }, (_, i) => `127.0.0.${i + 2}`);
const TIMEOUT_MS = 1_500;
const IDLE_MS = 200;

let sink: SmtpSink;
let dnsServer: TestDnsServer;
let dns: DnsResolver;
let transports: DirectTransport[] = [];
const closed = new WeakSet<DirectTransport>();

beforeAll(async () => {
  sink = await SmtpSink.start({ hosts: ADDRESSES });
  dnsServer = await TestDnsServer.start();
  dns = createDnsResolver({ servers: [dnsServer.address], timeoutMs: 500, tries: 2 });
});
afterAll(async () => {
  await sink?.close();
  await dnsServer?.close();
});
beforeEach(() => sink.reset());
// A test that failed half way still closes what it opened (before the sink closes).
afterEach(async () => {
  for (const transport of transports) if (!closed.has(transport)) await close(transport);
  transports = [];
});

function transport(options: Partial<DirectTransportOptions> = {}): DirectTransport {
  const created = createDirectTransport({
    dns,
    mxPort: sink.port,
    heloName: 'mail.herald.test',
    timeoutMs: TIMEOUT_MS,
    idleMs: IDLE_MS,
    ...options,
  });
  transports.push(created);
  return created;
}

async function close(transport: DirectTransport): Promise<void> {
  closed.add(transport);
  await transport.close();
}

interface TestDestination {
  domain: string;
  /** The MX host: the destination's key in the transport and the ledger. */
  host: string;
  address: string;
  to(local: string): string;
}

/** A recipient domain of its own whose one MX host resolves to `address`. */
function destinationOn(address: string, tag: string): TestDestination {
  const domain = `${tag}-${randomBytes(3).toString('hex')}.destinations.test`;
  const host = `mx.${domain}`;
  dnsServer.setMx(domain, { exchange: host, priority: 10 });
  dnsServer.set(host, 'A', [{ type: 'A', address }]);
  return { domain, host, address, to: (local) => `${local}@${domain}` };
}

const raw = (to: string) =>
  Buffer.from(
    `From: hello@send.herald.test\r\nTo: ${to}\r\nSubject: Hi\r\nMessage-ID: <${randomBytes(6).toString('hex')}@herald.test>\r\n\r\nHello there\r\n`,
  );

async function sendOne(transport: DirectTransport, to: string): Promise<RecipientOutcome> {
  const result = await transport.send({ from: FROM, to: [to] }, raw(to));
  expect(result.recipients).toHaveLength(1);
  return result.recipients[0]!;
}

const connectionsOn = (address: string): SinkConnection[] => sink.connections.filter((c) => c.localAddress === address);

/** Waits until every connection the sink saw on `address` has closed. */
const allClosedOn = (address: string) =>
  sink.waitFor(
    (s) => s.connections.every((c) => c.localAddress !== address || c.closedAt !== null),
    `${address} closed`,
  );

/**
 * Sends to every recipient as a delivery worker would: each temporary outcome with
 * `destinationPausedUntil` is offered again once that time has come (the clock moved there), any
 * other outcome is final. Every outcome of every round, in order.
 */
async function deliverAll(
  senders: { transport: DirectTransport; to: string[] }[],
  clock: ManualClock,
  rounds = 100,
): Promise<RecipientOutcome[]> {
  const outcomes: RecipientOutcome[] = [];
  let pending = senders;
  for (let round = 0; round < rounds && pending.some((s) => s.to.length > 0); round++) {
    const results = await Promise.all(
      pending.map(async ({ transport, to }) => ({
        transport,
        outcomes: await Promise.all(to.map((recipient) => sendOne(transport, recipient))),
      })),
    );
    const again = results.map(({ transport, outcomes: got }) => {
      outcomes.push(...got);
      return {
        transport,
        to: got.filter((o) => o.status === 'temporary' && o.destinationPausedUntil).map((o) => o.recipient),
      };
    });
    const until = Math.max(
      0,
      ...results.flatMap((r) => r.outcomes.map((o) => o.destinationPausedUntil?.getTime() ?? 0)),
    );
    if (until > clock.now().getTime()) clock.set(new Date(until + 1));
    pending = again;
  }
  return outcomes;
}

/**
 * Every recipient accepted in the end, none refused for good, and nothing the worker would count as
 * a failed attempt on the way: whatever came back before was handed back untried, or came with the
 * time its destination takes messages again.
 */
function expectAllAccepted(outcomes: RecipientOutcome[], recipients: string[]): void {
  const accepted = outcomes.filter((o) => o.status === 'accepted').map((o) => o.recipient);
  expect([...accepted].sort()).toEqual([...recipients].sort());
  expect(outcomes.filter((o) => o.status === 'permanent')).toEqual([]);
  expect(outcomes.filter((o) => o.status === 'temporary' && o.destinationPausedUntil === undefined)).toEqual([]);
}

/** A message handed back without being offered to any host (its destination paused or busy). */
const untried = { status: 'temporary', notAttempted: expect.anything() };

describe('pooled sessions per destination', () => {
  it('30 messages at once with a limit of 3: at most 3 connections, ≥ 10 messages each, every one ended with QUIT', async () => {
    const d = destinationOn(ADDRESSES[0]!, 'many');
    const clock = new ManualClock(new Date());
    const direct = transport({ maxConnections: 3, now: () => clock.now() });
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

describe('back-off per destination', () => {
  it('a receiver that takes 2 connections while the limit is 5: every message accepted, fewer connections, waits uncounted', async () => {
    const d = destinationOn(ADDRESSES[4]!, 'capped');
    sink.setBehaviour({ maxConnections: 2 }, d.address);
    const clock = new ManualClock(new Date());
    const troubles: DestinationBackoff[] = [];
    const direct = transport({
      maxConnections: 5,
      now: () => clock.now(),
      onTrouble: (destination, backoff) => {
        expect(destination).toBe(d.host);
        troubles.push(backoff);
      },
    });
    const recipients = Array.from({ length: 20 }, (_, i) => d.to(`c${i}`));
    // A temporary outcome the worker would count as an attempt has no destinationPausedUntil: none here.
    expectAllAccepted(await deliverAll([{ transport: direct, to: recipients }], clock), recipients);
    // The receiver did refuse (421 at greeting), and the destination went down to fewer connections.
    const refused = connectionsOn(d.address).filter((c) => c.refused);
    expect(refused.length).toBeGreaterThan(0);
    expect(troubles.length).toBeGreaterThan(0);
    expect(Math.min(...troubles.map((b) => b.connections))).toBeLessThanOrEqual(2);
    expect(troubles.every((b) => /421/.test(b.reason))).toBe(true);
    // Accepted connections never went past what the receiver allows, and carried several messages each.
    const served = connectionsOn(d.address).filter((c) => !c.refused);
    expect(served.reduce((sum, c) => sum + c.messages, 0)).toBe(20);

    await close(direct);
    await allClosedOn(d.address);
    expect(served.every((c) => c.quit)).toBe(true);
  });

  it('421 at greeting to everything: temporary, the destination paused; the next message is not tried', async () => {
    const d = destinationOn(ADDRESSES[5]!, 'refusing');
    sink.setBehaviour({ maxConnections: 0 }, d.address);
    const clock = new ManualClock(new Date());
    const direct = transport({ now: () => clock.now() });

    const first = await sendOne(direct, d.to('first'));
    expect(first).toMatchObject({ status: 'temporary', responseCode: 421, host: d.host });
    expect(first.response).toMatch(/421/);
    expect(first.notAttempted).toBeUndefined();
    expect(first.destinationPausedUntil!.getTime()).toBeGreaterThan(clock.now().getTime());
    expect(connectionsOn(d.address)).toHaveLength(1);
    expect(connectionsOn(d.address)[0]!.refused).toBe(true);

    const second = await sendOne(direct, d.to('second'));
    expect(second).toMatchObject(untried);
    expect(second.destinationPausedUntil).toEqual(first.destinationPausedUntil);
    expect(second.response).toMatch(/backed off/);
    expect(connectionsOn(d.address)).toHaveLength(1);
    expect(direct.destinations()[0]).toMatchObject({ destination: d.host, backedOff: true, postponed: 1 });
    await close(direct);
  });

  it('a receiver that never greets: temporary within about timeoutMs, the destination paused', async () => {
    const d = destinationOn(ADDRESSES[6]!, 'stalling');
    sink.setBehaviour({ stall: 'greeting' }, d.address);
    const clock = new ManualClock(new Date());
    const direct = transport({ now: () => clock.now() });

    const started = Date.now();
    const outcome = await sendOne(direct, d.to('waiting'));
    const took = Date.now() - started;
    expect(outcome.status).toBe('temporary');
    expect(outcome.destinationPausedUntil!.getTime()).toBeGreaterThan(clock.now().getTime());
    // One host, one address: one greeting timeout, not a connection per retry.
    expect(took).toBeGreaterThanOrEqual(TIMEOUT_MS - 100);
    expect(took).toBeLessThan(3 * TIMEOUT_MS);
    expect(connectionsOn(d.address)).toHaveLength(1);
    // The client gave up on the stalled connection and closed it.
    await sink.waitFor((s) => s.stalledCount === 0, 'the stalled connection closed');

    expect(await sendOne(direct, d.to('next'))).toMatchObject(untried);
    expect(connectionsOn(d.address)).toHaveLength(1);
    await close(direct);
  });

  it('sessions closed together with 421 are one trouble: one pause, not one per session', async () => {
    const clock = new ManualClock(new Date());
    const troubles: number[] = [];
    const direct = transport({ now: () => clock.now(), onTrouble: (_d, backoff) => troubles.push(backoff.failures) });
    const d = destinationOn(ADDRESSES[12]!, 'closing');
    sink.respond('*', { stage: 'data', code: 421, message: '4.3.2 Service shutting down' });
    const recipients = Array.from({ length: 4 }, (_, i) => d.to(`c${i}`));
    const outcomes = await Promise.all(recipients.map((to) => sendOne(direct, to)));
    expect(outcomes.every((o) => o.status === 'temporary' && o.destinationPausedUntil !== undefined)).toBe(true);
    expect(troubles).toEqual([1]);
    const pauses = new Set(outcomes.map((o) => o.destinationPausedUntil!.getTime()));
    expect(pauses.size).toBe(1);
    await close(direct);
  });

  it('a 4.7.x rate answer at RCPT pauses the destination; a 4.7.1 greylisting answer does not', async () => {
    const clock = new ManualClock(new Date());
    const direct = transport({ now: () => clock.now() });

    const rated = destinationOn(ADDRESSES[7]!, 'rated');
    const fast = rated.to('fast');
    sink.respond(fast, { stage: 'rcpt', code: 451, message: '4.7.1 Rate limit exceeded, try again in 60 seconds' });
    const slowed = await sendOne(direct, fast);
    expect(slowed).toMatchObject({ status: 'temporary', responseCode: 451 });
    expect(slowed.notAttempted).toBeUndefined();
    expect(slowed.destinationPausedUntil!.getTime()).toBeGreaterThan(clock.now().getTime());
    const behind = await sendOne(direct, rated.to('behind'));
    expect(behind).toMatchObject(untried);
    expect(sink.messages.filter((m) => m.envelope.to[0]!.endsWith(rated.domain))).toEqual([]);

    const grey = destinationOn(ADDRESSES[8]!, 'grey');
    const newcomer = grey.to('newcomer');
    sink.respond(newcomer, { stage: 'rcpt', code: 451, message: '4.7.1 greylisted, try again later' });
    const greylisted = await sendOne(direct, newcomer);
    expect(greylisted).toMatchObject({ status: 'temporary', responseCode: 451 });
    expect(greylisted.destinationPausedUntil).toBeUndefined();
    expect(greylisted.notAttempted).toBeUndefined();
    // The destination goes on: the next recipient is accepted, over the same session.
    expect(await sendOne(direct, grey.to('known'))).toMatchObject({ status: 'accepted' });
    expect(connectionsOn(grey.address)).toHaveLength(1);

    const stats = new Map(direct.destinations().map((s) => [s.destination, s]));
    expect(stats.get(rated.host)).toMatchObject({ backedOff: true });
    expect(stats.get(grey.host)).toMatchObject({ backedOff: false });
    await close(direct);
  });

  it('550 5.1.1 at RCPT: permanent, and the session carries the next message after RSET', async () => {
    const d = destinationOn(ADDRESSES[9]!, 'unknown');
    const gone = d.to('gone');
    sink.respond(gone, { stage: 'rcpt', code: 550, message: '5.1.1 <gone>: Recipient address rejected: User unknown' });
    const direct = transport();

    const refused = await sendOne(direct, gone);
    expect(refused).toMatchObject({ status: 'permanent', responseCode: 550, host: d.host });
    expect(refused.response).toMatch(/5\.1\.1/);
    expect(await sendOne(direct, d.to('here'))).toMatchObject({ status: 'accepted' });

    const [only, ...more] = connectionsOn(d.address);
    expect(more).toEqual([]);
    expect(only).toMatchObject({ messages: 1, refused: false });
    expect(direct.destinations()[0]).toMatchObject({ backedOff: false, sessions: 1 });
    await close(direct);
    await allClosedOn(d.address);
    expect(only!.quit).toBe(true);
  });
});

describe('the connection limit across processes (the database ledger)', () => {
  const logger = { warn: () => {} };

  it('two processes with a limit of 2, 20 messages each at once: at most 2 connections, no slot left after', async () => {
    const { db } = await getTestDb();
    const clock = new ManualClock(new Date());
    const d = destinationOn(ADDRESSES[10]!, 'shared');
    const processes = [0, 1].map(() =>
      transport({
        maxConnections: 2,
        ledger: databaseDestinationLedger(db, clock, logger),
        now: () => clock.now(),
      }),
    );
    const senders = processes.map((p, n) => ({
      transport: p,
      to: Array.from({ length: 20 }, (_, i) => d.to(`p${n}-${i}`)),
    }));
    const outcomes = await deliverAll(senders, clock);
    expectAllAccepted(
      outcomes,
      senders.flatMap((s) => s.to),
    );
    // A temporary outcome here is a message that found no free slot in time: handed back, untried.
    expect(outcomes.filter((o) => o.status === 'temporary' && o.notAttempted === undefined)).toEqual([]);
    expect(sink.peakConnectionsByAddress().get(d.address)).toBeLessThanOrEqual(2);
    expect(connectionsOn(d.address).every((c) => !c.refused)).toBe(true);

    for (const p of processes) await close(p);
    await allClosedOn(d.address);
    expect(connectionsOn(d.address).every((c) => c.quit)).toBe(true);
    const slots = await db.selectFrom('destination_slots').selectAll().where('destination', '=', d.host).execute();
    expect(slots).toEqual([]);
  });

  it('a live holder renews the slots of its open sessions only: a released one is not kept alive', async () => {
    const { db } = await getTestDb();
    const clock = new ManualClock(new Date());
    const destination = `mx.renew-${randomBytes(3).toString('hex')}.destinations.test`;
    const live = databaseDestinationLedger(db, clock, logger, 20);
    const other = databaseDestinationLedger(db, clock, logger);
    try {
      expect((await live.takeSlot(destination, 2)).slot).toBe(0);
      expect((await live.takeSlot(destination, 2)).slot).toBe(1);
      await live.releaseSlot(destination, 1);
      // Close to the end of the lease, the live holder renews what it holds.
      clock.advance(SLOT_LEASE_MS - 1_000);
      const renewed = () =>
        db
          .selectFrom('destination_slots')
          .select('lease_until')
          .where('destination', '=', destination)
          .where('slot', '=', 0)
          .executeTakeFirstOrThrow();
      await expect
        .poll(async () => (await renewed()).lease_until.getTime())
        .toBe(clock.now().getTime() + SLOT_LEASE_MS);
      clock.advance(2_000);
      // Past the first lease: slot 0 is still held, slot 1 was released and is free.
      expect((await other.takeSlot(destination, 2)).slot).toBe(1);
      expect((await other.takeSlot(destination, 2)).slot).toBeNull();
    } finally {
      await live.close();
      await other.close();
    }
  });

  it('a slot whose holder died is taken again once its lease has lapsed', async () => {
    const { db } = await getTestDb();
    const clock = new ManualClock(new Date());
    const d = destinationOn(ADDRESSES[11]!, 'orphan');
    // A process takes the destination's only slot, then dies: it never releases it nor renews it.
    const dead = databaseDestinationLedger(db, clock, logger);
    expect(await dead.takeSlot(d.host, 1)).toEqual({ slot: 0, backoff: null });

    // waitMs is twice timeoutMs: a short one, so the wait for a slot that does not come is short too.
    const direct = transport({
      maxConnections: 1,
      timeoutMs: 400,
      ledger: databaseDestinationLedger(db, clock, logger),
      now: () => clock.now(),
    });
    const blocked = await sendOne(direct, d.to('blocked'));
    expect(blocked).toMatchObject(untried);
    expect(connectionsOn(d.address)).toEqual([]);

    clock.advance(SLOT_LEASE_MS + 1_000);
    expect(await sendOne(direct, d.to('through'))).toMatchObject({ status: 'accepted' });
    expect(connectionsOn(d.address)).toHaveLength(1);

    await close(direct);
    expect(await db.selectFrom('destination_slots').selectAll().where('destination', '=', d.host).execute()).toEqual(
      [],
    );
    // Only to stop its renewal timer: the row it held is no longer its own.
    await dead.close();
  });
});
