// MTA-STS (RFC 8461) as the direct transport applies it: the policy of example.com is discovered on the
// loopback DNS server and fetched from the loopback policy host (mta-sts-server.ts, the test CA's
// certificate), and mail goes to a loopback SMTP receiver that presents either the test certificate
// (valid for *.example.com under the test CA) or smtp-server's bundled self-signed one. Enforce mode
// must deliver only over TLS with a certificate valid for the MX name and never fall back to
// plaintext; testing mode delivers and reports. Each test builds its own transport (and so its own
// policy cache) and closes it before its receiver.
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { SMTPServer } from 'smtp-server';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createDirectTransport, type DirectTransport } from '../../src/adapters/mail-transport/direct.ts';
import { expectAllPassDkim, from, message, transportTestBed } from '../emails/transport-support.ts';
import { MtaStsServer } from '../support/mta-sts-server.ts';
import { SmtpSink } from '../support/smtp-sink.ts';

const TLS_DIR = path.join(import.meta.dirname, '../support/tls');
/** Valid for mx.example.com (SAN *.example.com), signed by the test CA. */
const TEST_CERTIFICATE = {
  key: readFileSync(path.join(TLS_DIR, 'server-key.pem')),
  cert: readFileSync(path.join(TLS_DIR, 'server.pem')),
};
const TEST_CA = readFileSync(path.join(TLS_DIR, 'ca.pem'), 'utf8');

const DOMAIN = 'example.com';
const MX_HOST = 'mx.example.com';
const RECIPIENT = `ann@${DOMAIN}`;
const DAY = 86_400;

// The bed's sink presents smtp-server's bundled self-signed certificate: untrusted, not for mx.example.com.
const bed = transportTestBed();
let policyServer: MtaStsServer;
let policyIds = 0;
const transports: DirectTransport[] = [];
const receivers: { close(): Promise<void> }[] = [];
let reports: { domain: string; problem: string }[] = [];

beforeAll(async () => {
  policyServer = await MtaStsServer.start();
});

afterAll(async () => {
  await policyServer.close();
});

beforeEach(() => {
  policyServer.reset();
  reports = [];
  const { dnsServer } = bed;
  // A new id per test: a policy is fetched afresh whatever an earlier test served.
  policyIds += 1;
  dnsServer.setTxt(`_mta-sts.${DOMAIN}`, `v=STSv1; id=t${policyIds}`);
  dnsServer.set(`mta-sts.${DOMAIN}`, 'A', [{ type: 'A', address: '127.0.0.1' }]);
  dnsServer.setMx(DOMAIN, { exchange: MX_HOST, priority: 10 });
  dnsServer.set(MX_HOST, 'A', [{ type: 'A', address: '127.0.0.1' }]);
});

// Transports first (their pooled sessions QUIT), then the receivers they talked to.
afterEach(async () => {
  for (const transport of transports.splice(0)) await transport.close();
  for (const receiver of receivers.splice(0)) await receiver.close();
});

/** A fresh direct transport (fresh policy cache) whose MX port is `port`, trusting the test CA. */
function transportTo(port: number): DirectTransport {
  const transport = createDirectTransport({
    dns: bed.dns,
    mxPort: port,
    heloName: 'herald.test',
    timeoutMs: 2_000,
    ca: TEST_CA,
    mtaStsPort: policyServer.port,
    onMtaStsReport: (domain, problem) => reports.push({ domain, problem }),
  });
  transports.push(transport);
  return transport;
}

/** A sink for this test only, closed after its transport. */
async function sinkFor(options: Parameters<typeof SmtpSink.start>[0]): Promise<SmtpSink> {
  const sink = await SmtpSink.start(options);
  receivers.push(sink);
  return sink;
}

async function send(transport: DirectTransport) {
  const result = await transport.send({ from, to: [RECIPIENT] }, await message([RECIPIENT]));
  return result.recipients;
}

function servePolicy(mode: 'enforce' | 'testing', mx: string[] = [MX_HOST]): void {
  policyServer.servePolicy(DOMAIN, { mode, mx, maxAge: DAY });
}

/** Nothing reached the receiver: no message accepted, on any connection, encrypted or not. */
function expectNothingReceived(sink: SmtpSink): void {
  expect(sink.messages).toEqual([]);
  expect(sink.connections.every((connection) => connection.messages === 0)).toBe(true);
}

/**
 * A receiver that really has no STARTTLS (the sink's `starttls: false` only hides it from EHLO, and
 * a client requiring TLS may still send the command): STARTTLS is answered as an unknown command.
 * It records every MAIL FROM, so that a transaction begun in plaintext shows even without DATA.
 */
async function receiverWithoutStarttls() {
  const mailFrom: string[] = [];
  const messages: Buffer[] = [];
  const server = new SMTPServer({
    logger: false,
    disableReverseLookup: true,
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onMailFrom(address, _session, callback) {
      mailFrom.push(address.address);
      callback();
    },
    onData(stream, _session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        messages.push(Buffer.concat(chunks));
        callback();
      });
    },
  });
  server.on('error', () => {});
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const receiver = {
    port: (server.server.address() as AddressInfo).port,
    mailFrom,
    messages,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  receivers.push(receiver);
  return receiver;
}

describe('direct transport under MTA-STS', () => {
  it('enforce: delivers over TLS to the policy MX presenting a valid certificate for its name', async () => {
    servePolicy('enforce');
    const sink = await sinkFor({ tls: TEST_CERTIFICATE });
    const transport = transportTo(sink.port);

    expect(await send(transport)).toMatchObject([
      { recipient: RECIPIENT, status: 'accepted', responseCode: 250, host: MX_HOST },
    ]);
    const [received] = await sink.waitForMessages(1);
    expect(received!.envelope).toEqual({ from, to: [RECIPIENT] });
    expect(received!.secure).toBe(true);
    expect(transport.tlsOutcomes()).toMatchObject({ verified: 1, mta_sts_refused: 0, plaintext: 0 });
    expect(transport.destinations().map((d) => d.destination)).toEqual([`${MX_HOST} (MTA-STS enforce)`]);
    // The policy really was fetched from mta-sts.example.com (not a default that happened to pass).
    expect(policyServer.requestsFor(DOMAIN)).toEqual([`mta-sts.${DOMAIN} /.well-known/mta-sts.txt`]);
    expect(reports).toEqual([]);
    await expectAllPassDkim(sink.messages, bed.dnsServer.address);
  });

  it('enforce: defers, sending nothing, when the MX presents an untrusted certificate', async () => {
    servePolicy('enforce');
    const transport = transportTo(bed.sink.port);

    const [outcome] = await send(transport);
    expect(outcome).toMatchObject({ recipient: RECIPIENT, status: 'temporary', host: MX_HOST });
    // The receiver was reached (the refusal is the certificate's), and got nothing, in clear or not.
    expect(bed.sink.connections.length).toBeGreaterThan(0);
    expectNothingReceived(bed.sink);
    expect(transport.tlsOutcomes()).toMatchObject({ mta_sts_refused: 1, verified: 0, plaintext: 0, unverified: 0 });
  });

  it('enforce: defers, sending nothing, when a trusted certificate does not name the MX host', async () => {
    // *.example.com covers one label: mail.mx.example.com is not in the certificate, whose chain is valid.
    const host = `mail.${MX_HOST}`;
    bed.dnsServer.setMx(DOMAIN, { exchange: host, priority: 10 });
    bed.dnsServer.set(host, 'A', [{ type: 'A', address: '127.0.0.1' }]);
    servePolicy('enforce', [host]);
    const sink = await sinkFor({ tls: TEST_CERTIFICATE });
    const transport = transportTo(sink.port);

    const [outcome] = await send(transport);
    expect(outcome).toMatchObject({ recipient: RECIPIENT, status: 'temporary', host });
    expect(sink.connections.length).toBeGreaterThan(0);
    expectNothingReceived(sink);
    expect(transport.tlsOutcomes()).toMatchObject({ mta_sts_refused: 1, verified: 0, plaintext: 0 });
  });

  it('enforce: defers without connecting when the policy lists none of the MX hosts', async () => {
    servePolicy('enforce', [`*.mail.${DOMAIN}`, `mx1.${DOMAIN}`]);
    const sink = await sinkFor({ tls: TEST_CERTIFICATE });
    const transport = transportTo(sink.port);

    const [outcome] = await send(transport);
    expect(outcome).toMatchObject({ recipient: RECIPIENT, status: 'temporary' });
    expect(outcome!.response).toContain('MTA-STS');
    expect(sink.connections).toEqual([]);
    expectNothingReceived(sink);
    expect(transport.tlsOutcomes()).toMatchObject({ mta_sts_refused: 1, verified: 0, plaintext: 0 });
  });

  it('testing: delivers over opportunistic TLS despite an untrusted certificate, and reports it', async () => {
    servePolicy('testing');
    const transport = transportTo(bed.sink.port);

    expect(await send(transport)).toMatchObject([{ recipient: RECIPIENT, status: 'accepted', host: MX_HOST }]);
    const [received] = await bed.sink.waitForMessages(1);
    expect(received!.secure).toBe(true);
    expect(transport.tlsOutcomes()).toMatchObject({ mta_sts_refused: 0, verified: 0 });
    // The first argument is what the session knows: its destination's MX hosts (mx.example.com).
    expect(reports).toEqual([{ domain: expect.any(String), problem: expect.stringContaining(MX_HOST) }]);
  });

  it('testing: the report and the TLS outcome say unverified TLS, not plaintext', async () => {
    servePolicy('testing');
    const transport = transportTo(bed.sink.port);

    expect(await send(transport)).toMatchObject([{ status: 'accepted' }]);
    expect(reports).toEqual([{ domain: expect.any(String), problem: expect.stringContaining('unverified') }]);
    expect(transport.tlsOutcomes()).toMatchObject({ unverified: 1, plaintext: 0 });
  });

  it('testing: no report when the MX presents a valid certificate for its name', async () => {
    servePolicy('testing');
    const sink = await sinkFor({ tls: TEST_CERTIFICATE });
    const transport = transportTo(sink.port);

    expect(await send(transport)).toMatchObject([{ status: 'accepted', host: MX_HOST }]);
    expect((await sink.waitForMessages(1))[0]!.secure).toBe(true);
    expect(reports).toEqual([]);
    expect(transport.tlsOutcomes()).toMatchObject({ verified: 1, plaintext: 0 });
  });

  it('enforce: sends nothing in plaintext to a receiver without STARTTLS', async () => {
    servePolicy('enforce');
    const receiver = await receiverWithoutStarttls();
    const transport = transportTo(receiver.port);

    const [outcome] = await send(transport);
    expect(outcome).toMatchObject({ recipient: RECIPIENT, host: MX_HOST });
    expect(outcome!.status).not.toBe('accepted');
    expect(receiver.mailFrom).toEqual([]);
    expect(receiver.messages).toEqual([]);
    expect(transport.tlsOutcomes()).toMatchObject({ mta_sts_refused: 1, verified: 0, plaintext: 0 });

    // The same receiver takes the message in plaintext once example.com publishes no policy: the
    // refusal above was the policy's doing.
    bed.dnsServer.remove(`_mta-sts.${DOMAIN}`);
    const unprotected = transportTo(receiver.port);
    expect(await send(unprotected)).toMatchObject([{ status: 'accepted' }]);
    expect(receiver.messages).toHaveLength(1);
    expect(unprotected.tlsOutcomes()).toMatchObject({ plaintext: 1 });
  });

  it('enforce: a receiver without STARTTLS defers the message instead of bouncing it', async () => {
    servePolicy('enforce');
    const receiver = await receiverWithoutStarttls();
    const transport = transportTo(receiver.port);

    const [outcome] = await send(transport);
    expect(outcome).toMatchObject({ recipient: RECIPIENT, status: 'temporary', host: MX_HOST });
  });

  it('no policy (no _mta-sts TXT): delivers as before, over opportunistic TLS', async () => {
    bed.dnsServer.remove(`_mta-sts.${DOMAIN}`);
    servePolicy('enforce'); // served but not announced: must not be fetched or applied
    const transport = transportTo(bed.sink.port);

    expect(await send(transport)).toMatchObject([{ recipient: RECIPIENT, status: 'accepted', host: MX_HOST }]);
    const [received] = await bed.sink.waitForMessages(1);
    expect(received!.secure).toBe(true);
    expect(transport.tlsOutcomes()).toMatchObject({ mta_sts_refused: 0, verified: 0, failed: 0 });
    expect(transport.destinations().map((d) => d.destination)).toEqual([MX_HOST]);
    expect(policyServer.requests).toEqual([]);
    expect(reports).toEqual([]);
  });

  it('no policy: a STARTTLS session is counted as unverified TLS, not plaintext', async () => {
    bed.dnsServer.remove(`_mta-sts.${DOMAIN}`);
    const transport = transportTo(bed.sink.port);

    expect(await send(transport)).toMatchObject([{ status: 'accepted' }]);
    expect(transport.tlsOutcomes()).toMatchObject({ unverified: 1, plaintext: 0 });
  });
});
