// Shared by test/adapters/direct-destinations-*.test.ts: the SMTP sink on 13 loopback addresses and the
// loopback DNS server for each file, the transports a test opens, and helpers to deliver and check outcomes.
//
// The `direct` transport's destinations, as a receiving MTA sees them (the SMTP sink on several
// loopback addresses, one per destination, their MX records on the loopback DNS server): several
// messages per pooled session with RSET between them and QUIT at the end, the per-destination
// connection limit (per address, and across two processes through the database's ledger), and the
// back-off of a destination that refuses connections, stalls or answers "too fast", while a
// greylisting answer or a refused recipient leave the destination alone.
import { randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeAll, beforeEach, expect } from 'vitest';
import { createCachingDnsResolver } from '../../src/adapters/dns-cache.ts';
import { createDnsResolver, type DnsResolver } from '../../src/adapters/dns.ts';
import {
  createDirectTransport,
  type DirectTransport,
  type DirectTransportOptions,
  type RecipientOutcome,
} from '../../src/adapters/mail-transport/index.ts';
import type { ManualClock } from '../../src/platform/clock.ts';
import { TestDnsServer } from '../support/dns-server.ts';
import { SmtpSink, type SinkConnection } from '../support/smtp-sink.ts';

const FROM = 'bounce+dd@send.herald.test';
/** One sink address per test, so that what one test left open never counts in another. */
export const ADDRESSES = Array.from({ length: 13 }, (_, i) => `127.0.0.${i + 2}`);
export const TIMEOUT_MS = 1_500;
export const IDLE_MS = 200;

export let sink: SmtpSink;
let dnsServer: TestDnsServer;
let dns: DnsResolver;
let transports: DirectTransport[] = [];
const closed = new WeakSet<DirectTransport>();

/** The sink and the DNS server for the calling test file, the sink reset before each test. */
export function useDestinationsBed(): void {
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
}

/** The bed's resolver behind the cache production's direct transport uses (build-deps.ts). */
export const cachingDns = () => createCachingDnsResolver(dns);

export function transport(options: Partial<DirectTransportOptions> = {}): DirectTransport {
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

export async function close(transport: DirectTransport): Promise<void> {
  closed.add(transport);
  await transport.close();
}

export interface TestDestination {
  domain: string;
  /** The MX host: the destination's key in the transport and the ledger. */
  host: string;
  address: string;
  to(local: string): string;
}

/** A recipient domain of its own whose one MX host resolves to `address`. */
export function destinationOn(address: string, tag: string): TestDestination {
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

export async function sendOne(transport: DirectTransport, to: string): Promise<RecipientOutcome> {
  const result = await transport.send({ from: FROM, to: [to] }, raw(to));
  expect(result.recipients).toHaveLength(1);
  return result.recipients[0]!;
}

export const connectionsOn = (address: string): SinkConnection[] =>
  sink.connections.filter((c) => c.localAddress === address);

/** Waits until every connection the sink saw on `address` has closed. */
export const allClosedOn = (address: string) =>
  sink.waitFor(
    (s) => s.connections.every((c) => c.localAddress !== address || c.closedAt !== null),
    `${address} closed`,
  );

/**
 * Sends to every recipient as a delivery worker would: each temporary outcome with
 * `destinationPausedUntil` is offered again once that time has come (the clock moved there), any
 * other outcome is final. Every outcome of every round, in order.
 */
export async function deliverAll(
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
export function expectAllAccepted(outcomes: RecipientOutcome[], recipients: string[]): void {
  const accepted = outcomes.filter((o) => o.status === 'accepted').map((o) => o.recipient);
  expect([...accepted].sort()).toEqual([...recipients].sort());
  expect(outcomes.filter((o) => o.status === 'permanent')).toEqual([]);
  expect(outcomes.filter((o) => o.status === 'temporary' && o.destinationPausedUntil === undefined)).toEqual([]);
}

/** A message handed back without being offered to any host (its destination paused or busy). */
export const untried = { status: 'temporary', notAttempted: expect.anything() };
