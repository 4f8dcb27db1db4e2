// The mail transports against a real SMTP server on loopback (the sink) and, for `direct`, MX
// lookups through the loopback DNS server: per-recipient outcomes for 250, 4xx and 5xx at RCPT and
// at DATA, MX priority, the A fallback, unreachable hosts, STARTTLS, and DKIM verified end to end:
// every message is signed with a key published on the loopback DNS server, and every message a sink
// receives must pass mailauth's verifier looking that key up over DNS.
import net from 'node:net';
import { simpleParser } from 'mailparser';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createDnsResolver, type DnsResolver } from '../../src/adapters/dns.ts';
import {
  createMailTransport,
  type LoggedMessage,
  type MailTransport,
} from '../../src/adapters/mail-transport/index.ts';
import { signMessage } from '../../src/emails/dkim-sign.ts';
import { buildMessage } from '../../src/emails/mime.ts';
import { verifyDkimWithDns } from '../support/dkim-verify.ts';
import { TestDnsServer } from '../support/dns-server.ts';
import { makeDkimKey, SmtpSink, type SinkMessage } from '../support/smtp-sink.ts';

const from = 'bounce+em_1.abcdefghijklmnop@send.acme.test';
const key = makeDkimKey('acme.test', 'h2026');

async function message(to: string[]): Promise<Buffer> {
  const raw = await buildMessage({
    from: 'hello@acme.test',
    to,
    subject: 'Hi',
    text: 'Hello there',
    messageId: '<m1@herald.test>',
    date: new Date('2026-03-01T10:00:00Z'),
  });
  return signMessage(raw, { domain: key.domain, selector: key.selector, privateKeyPem: key.privateKeyPem });
}

async function expectAllPassDkim(messages: SinkMessage[]): Promise<void> {
  for (const received of messages) {
    expect(
      (await verifyDkimWithDns(received.raw, dnsServer.address)).statuses,
      `DKIM of the message to ${received.envelope.to.join(', ')}`,
    ).toEqual(['pass']);
  }
}

/** A loopback port with nothing listening on it. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

let sink: SmtpSink;
let dnsServer: TestDnsServer;
let dns: DnsResolver;
const noRecord = () => {
  throw new Error('not the log transport');
};

beforeAll(async () => {
  sink = await SmtpSink.start();
  dnsServer = await TestDnsServer.start();
  dns = createDnsResolver({ servers: [dnsServer.address], timeoutMs: 200, tries: 1 });
  dnsServer.setTxt(`${key.selector}._domainkey.${key.domain}`, key.txt);
});
afterAll(async () => {
  await sink.close();
  await dnsServer.close();
});
beforeEach(() => sink.reset());
afterEach(() => expectAllPassDkim(sink.messages));

describe('log transport', () => {
  it('accepts every recipient and hands the message to the caller', async () => {
    const recorded: LoggedMessage[] = [];
    const transport = createMailTransport(
      { kind: 'log' },
      {
        dns,
        mxPort: 25,
        mailDomain: 'herald.test',
        record: (m) => {
          recorded.push(m);
        },
      },
    );
    const raw = await message(['a@example.test']);
    const result = await transport.send({ from, to: ['a@example.test', 'b@example.test'] }, raw);
    expect(result.recipients.map((r) => [r.recipient, r.status])).toEqual([
      ['a@example.test', 'accepted'],
      ['b@example.test', 'accepted'],
    ]);
    expect(recorded).toEqual([{ envelope: { from, to: ['a@example.test', 'b@example.test'] }, raw }]);
    expect(sink.messages).toHaveLength(0);
    await transport.close();
  });
});

describe('smtp relay transport', () => {
  let relay: MailTransport;
  beforeAll(() => {
    relay = createMailTransport(
      { kind: 'smtp', url: `smtp://herald:s%40cret@127.0.0.1:${sink.port}` },
      // The sink's certificate is self-signed; a real relay's is checked.
      {
        dns,
        mxPort: 25,
        mailDomain: 'herald.test',
        record: noRecord,
        relayTls: { rejectUnauthorized: false },
        timeoutMs: 5_000,
      },
    );
  });
  afterAll(() => relay.close());

  it('delivers the whole envelope in one transaction: 250 accepted for all', async () => {
    const to = ['a@example.test', 'b@other.test', 'hidden@example.test'];
    const raw = await message(to.slice(0, 2));
    const result = await relay.send({ from, to }, raw);
    expect(result.recipients.map((r) => [r.recipient, r.status, r.responseCode])).toEqual(
      to.map((r) => [r, 'accepted', 250]),
    );
    expect(result.recipients[0]!.response).toMatch(/^250 /);
    const [received] = await sink.waitForMessages(1);
    expect(received!.envelope).toEqual({ from, to });
    expect(received!.raw.equals(raw)).toBe(true);
    expect(received!.secure).toBe(true);
    expect(received!.user).toBe('herald');
    expect(received!.heloName).toBe('herald.test');
  });

  it('reports a 4xx at RCPT as temporary for every recipient', async () => {
    sink.respond('*', { stage: 'rcpt', code: 451, message: 'Try again later' });
    const result = await relay.send(
      { from, to: ['a@example.test', 'b@example.test'] },
      await message(['a@example.test']),
    );
    expect(result.recipients.map((r) => [r.status, r.responseCode])).toEqual([
      ['temporary', 451],
      ['temporary', 451],
    ]);
    expect(result.recipients[0]!.response).toMatch(/^451 Try again later/);
    expect(sink.messages).toHaveLength(0);
  });

  it('reports a 4xx at DATA as temporary for every recipient', async () => {
    sink.respond('*', { stage: 'data', code: 452, message: 'Out of storage' });
    const result = await relay.send(
      { from, to: ['a@example.test', 'b@example.test'] },
      await message(['a@example.test']),
    );
    expect(result.recipients.map((r) => [r.status, r.responseCode])).toEqual([
      ['temporary', 452],
      ['temporary', 452],
    ]);
  });

  it('reports a 5xx for one recipient as permanent for that one and accepted for the others', async () => {
    sink.respond('gone@example.test', { stage: 'rcpt', code: 550, message: 'No such user' });
    const to = ['a@example.test', 'gone@example.test', 'c@example.test'];
    const result = await relay.send({ from, to }, await message(to));
    expect(result.recipients.map((r) => [r.recipient, r.status, r.responseCode])).toEqual([
      ['a@example.test', 'accepted', 250],
      ['gone@example.test', 'permanent', 550],
      ['c@example.test', 'accepted', 250],
    ]);
    expect(result.recipients[1]!.response).toMatch(/^550 No such user/);
    const [received] = await sink.waitForMessages(1);
    expect(received!.envelope.to).toEqual(['a@example.test', 'c@example.test']);
  });

  it('reports a 5xx at DATA as permanent for every recipient', async () => {
    sink.respond('*', { stage: 'data', code: 554, message: 'Message rejected as spam' });
    const result = await relay.send({ from, to: ['a@example.test'] }, await message(['a@example.test']));
    expect(result.recipients).toMatchObject([{ status: 'permanent', responseCode: 554 }]);
  });

  it('reports an unreachable relay as temporary', async () => {
    const dead = createMailTransport(
      { kind: 'smtp', url: `smtp://127.0.0.1:${await closedPort()}` },
      { dns, mxPort: 25, mailDomain: 'herald.test', record: noRecord, timeoutMs: 2_000 },
    );
    const result = await dead.send({ from, to: ['a@example.test'] }, await message(['a@example.test']));
    expect(result.recipients).toMatchObject([{ recipient: 'a@example.test', status: 'temporary' }]);
    expect(result.recipients[0]!.responseCode).toBeUndefined();
    await dead.close();
  });
});

describe('direct transport', () => {
  let direct: MailTransport;
  beforeAll(() => {
    direct = createMailTransport(
      { kind: 'direct' },
      { dns, mxPort: sink.port, mailDomain: 'herald.test', record: noRecord, timeoutMs: 2_000 },
    );
  });
  afterAll(() => direct.close());

  it('looks up the MX through HERALD_DNS_SERVERS and delivers there over STARTTLS', async () => {
    dnsServer.setMx('mx.direct.test', { exchange: 'in1.mx.direct.test', priority: 10 });
    dnsServer.set('in1.mx.direct.test', 'A', [{ type: 'A', address: '127.0.0.1' }]);
    const result = await direct.send({ from, to: ['ann@mx.direct.test'] }, await message(['ann@mx.direct.test']));
    expect(result.recipients).toMatchObject([
      { recipient: 'ann@mx.direct.test', status: 'accepted', responseCode: 250, host: 'in1.mx.direct.test' },
    ]);
    const [received] = await sink.waitForMessages(1);
    expect(received!.envelope).toEqual({ from, to: ['ann@mx.direct.test'] });
    expect(received!.secure).toBe(true);
    expect(dnsServer.queries).toContain('MX mx.direct.test over udp');
  });

  it('tries MX hosts by priority and moves past one that cannot be reached', async () => {
    // 127.0.0.2 is loopback too, but the sink listens on 127.0.0.1 only: connection refused.
    dnsServer.setMx(
      'prio.direct.test',
      { exchange: 'backup.prio.direct.test', priority: 20 },
      { exchange: 'dead.prio.direct.test', priority: 5 },
    );
    dnsServer.set('dead.prio.direct.test', 'A', [{ type: 'A', address: '127.0.0.2' }]);
    dnsServer.set('backup.prio.direct.test', 'A', [{ type: 'A', address: '127.0.0.1' }]);
    const result = await direct.send({ from, to: ['bo@prio.direct.test'] }, await message(['bo@prio.direct.test']));
    expect(result.recipients).toMatchObject([{ status: 'accepted', host: 'backup.prio.direct.test' }]);
  });

  it('falls back to the domain address when there is no MX (RFC 5321 5.1)', async () => {
    dnsServer.set('nomx.direct.test', 'A', [{ type: 'A', address: '127.0.0.1' }]);
    const result = await direct.send({ from, to: ['cy@nomx.direct.test'] }, await message(['cy@nomx.direct.test']));
    expect(result.recipients).toMatchObject([{ status: 'accepted', host: 'nomx.direct.test' }]);
    expect(dnsServer.queries).toContain('MX nomx.direct.test over udp');
    expect(dnsServer.queries).toContain('A nomx.direct.test over udp');
  });

  it('groups recipients by domain and keeps per-recipient outcomes from RCPT replies', async () => {
    dnsServer.setMx('one.direct.test', { exchange: 'mx.one.direct.test', priority: 10 });
    dnsServer.set('mx.one.direct.test', 'A', [{ type: 'A', address: '127.0.0.1' }]);
    dnsServer.set('two.direct.test', 'A', [{ type: 'A', address: '127.0.0.1' }]);
    sink.respond('nobody@one.direct.test', { stage: 'rcpt', code: 550, message: 'No such user' });
    sink.respond('full@two.direct.test', { stage: 'rcpt', code: 452, message: 'Mailbox full' });
    const to = ['a@one.direct.test', 'a@two.direct.test', 'nobody@one.direct.test', 'full@two.direct.test'];
    const result = await direct.send({ from, to }, await message(to));
    expect(result.recipients.map((r) => [r.recipient, r.status])).toEqual([
      ['a@one.direct.test', 'accepted'],
      ['a@two.direct.test', 'accepted'],
      ['nobody@one.direct.test', 'permanent'],
      ['full@two.direct.test', 'temporary'],
    ]);
    const received = await sink.waitForMessages(2);
    expect(received.map((m) => m.envelope.to).sort()).toEqual([['a@one.direct.test'], ['a@two.direct.test']]);
  });

  it('reports a 5xx at DATA as permanent', async () => {
    dnsServer.set('spam.direct.test', 'A', [{ type: 'A', address: '127.0.0.1' }]);
    sink.respond('*', { stage: 'data', code: 554, message: 'Rejected' });
    const result = await direct.send({ from, to: ['x@spam.direct.test'] }, await message(['x@spam.direct.test']));
    expect(result.recipients).toMatchObject([{ status: 'permanent', responseCode: 554 }]);
  });

  it('reports unreachable hosts as temporary', async () => {
    dnsServer.setMx('down.direct.test', { exchange: 'mx.down.direct.test', priority: 10 });
    dnsServer.set('mx.down.direct.test', 'A', [{ type: 'A', address: '127.0.0.2' }]);
    const result = await direct.send({ from, to: ['a@down.direct.test'] }, await message(['a@down.direct.test']));
    expect(result.recipients).toMatchObject([{ status: 'temporary', host: 'mx.down.direct.test' }]);
  });

  it('reports a DNS failure as temporary and a domain with no mail host as permanent', async () => {
    dnsServer.behave('broken.direct.test', 'servfail');
    dnsServer.setMx('nullmx.direct.test', { exchange: '.', priority: 0 });
    const to = ['a@broken.direct.test', 'a@nowhere.direct.test', 'a@nullmx.direct.test'];
    const result = await direct.send({ from, to }, await message(to));
    expect(result.recipients.map((r) => [r.recipient, r.status])).toEqual([
      ['a@broken.direct.test', 'temporary'],
      ['a@nowhere.direct.test', 'permanent'],
      ['a@nullmx.direct.test', 'permanent'],
    ]);
  });

  it('delivers in plaintext to a host that offers no STARTTLS', async () => {
    const plain = await SmtpSink.start({ starttls: false });
    try {
      const transport = createMailTransport(
        { kind: 'direct' },
        { dns, mxPort: plain.port, mailDomain: 'herald.test', record: noRecord, timeoutMs: 2_000 },
      );
      dnsServer.set('plain.direct.test', 'A', [{ type: 'A', address: '127.0.0.1' }]);
      const result = await transport.send(
        { from, to: ['p@plain.direct.test'] },
        await message(['p@plain.direct.test']),
      );
      expect(result.recipients).toMatchObject([{ status: 'accepted' }]);
      const [received] = await plain.waitForMessages(1);
      expect(received!.secure).toBe(false);
      await expectAllPassDkim(plain.messages);
    } finally {
      await plain.close();
    }
  });

  it('delivers a DKIM-signed message that the receiving side verifies', async () => {
    // Its own key and selector, published beside the suite's, as a second key of the domain would be.
    const own = makeDkimKey('acme.test', 'h2026b');
    dnsServer.setTxt(`${own.selector}._domainkey.${own.domain}`, own.txt);
    dnsServer.set('dkim.direct.test', 'A', [{ type: 'A', address: '127.0.0.1' }]);
    const raw = await buildMessage({
      from: 'Acme <hello@acme.test>',
      to: ['d@dkim.direct.test'],
      subject: 'Signed',
      html: '<p>Signed</p>',
      text: 'Signed',
      messageId: '<m2@herald.test>',
      date: new Date('2026-03-01T10:00:00Z'),
      listUnsubscribe: 'https://herald.test/u/1',
      attachments: [{ filename: 'a.bin', content: Buffer.from([0, 1, 2, 255]) }],
    });
    const signed = await signMessage(raw, {
      domain: own.domain,
      selector: own.selector,
      privateKeyPem: own.privateKeyPem,
    });
    const result = await direct.send({ from, to: ['d@dkim.direct.test'] }, signed);
    expect(result.recipients).toMatchObject([{ status: 'accepted' }]);
    const [received] = await sink.waitForMessages(1);
    const dkim = await verifyDkimWithDns(received!.raw, dnsServer.address);
    expect(dkim.statuses).toEqual(['pass']);
    expect(dkim.results[0]).toMatchObject({ signingDomain: 'acme.test', selector: 'h2026b' });
    expect(dnsServer.queries.some((q) => q.startsWith('TXT h2026b._domainkey.acme.test'))).toBe(true);
    expect((await simpleParser(received!.raw)).subject).toBe('Signed');
  });
});
