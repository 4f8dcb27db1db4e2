// Shared by the mail transport tests (transport-relay.test.ts, transport-direct.test.ts): a real SMTP
// server on loopback (the sink) and the loopback DNS server, up for the file; every message is signed
// with a key published on that DNS server, and every message a sink receives must pass mailauth's
// verifier looking that key up over DNS.
import net from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, expect } from 'vitest';
import { createDnsResolver, type DnsResolver } from '../../src/adapters/dns.ts';
import { signMessage } from '../../src/emails/dkim-sign.ts';
import { buildMessage } from '../../src/emails/mime.ts';
import { verifyDkimWithDns } from '../support/dkim-verify.ts';
import { TestDnsServer } from '../support/dns-server.ts';
import { makeDkimKey, SmtpSink, type SinkMessage } from '../support/smtp-sink.ts';

export const from = 'bounce+em_1.abcdefghijklmnop@send.acme.test';
const key = makeDkimKey('acme.test', 'h2026');

/**
 * The signing time the tests pass, as delivery does: without one, mailauth reads the clock twice (the
 * t= it signs and the t= it writes), and a signature made across a rounding boundary fails to verify.
 */
export const SIGN_TIME = new Date('2026-03-01T10:00:00Z');

/** A message to `to`, signed with the key the bed publishes. */
export async function message(to: string[]): Promise<Buffer> {
  const raw = await buildMessage({
    from: 'hello@acme.test',
    to,
    subject: 'Hi',
    text: 'Hello there',
    messageId: '<m1@herald.test>',
    date: SIGN_TIME,
  });
  return signMessage(raw, { domain: key.domain, selector: key.selector, privateKeyPem: key.privateKeyPem }, SIGN_TIME);
}

export async function expectAllPassDkim(messages: SinkMessage[], dnsAddress: string): Promise<void> {
  for (const received of messages) {
    expect(
      (await verifyDkimWithDns(received.raw, dnsAddress)).statuses,
      `DKIM of the message to ${received.envelope.to.join(', ')}`,
    ).toEqual(['pass']);
  }
}

/** A loopback port with nothing listening on it. */
export async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export const noRecord = () => {
  throw new Error('not the log transport');
};

export interface TransportBed {
  sink: SmtpSink;
  dnsServer: TestDnsServer;
  /** A resolver asking the loopback DNS server only. */
  dns: DnsResolver;
}

/**
 * Registers, in the calling file, the sink and DNS server for its tests (vitest runs files with
 * isolate: false): the sink is reset before each test and what it received is DKIM-checked after.
 */
export function transportTestBed(): TransportBed {
  const bed = {} as TransportBed;
  beforeAll(async () => {
    bed.sink = await SmtpSink.start();
    bed.dnsServer = await TestDnsServer.start();
    bed.dns = createDnsResolver({ servers: [bed.dnsServer.address], timeoutMs: 200, tries: 1 });
    bed.dnsServer.setTxt(`${key.selector}._domainkey.${key.domain}`, key.txt);
  });
  afterAll(async () => {
    await bed.sink.close();
    await bed.dnsServer.close();
  });
  beforeEach(() => bed.sink.reset());
  afterEach(() => expectAllPassDkim(bed.sink.messages, bed.dnsServer.address));
  return bed;
}
